// The page: conversations from the journal, live turns from the event stream, and the
// waiting proposal with Run (Enter), Edit and Cancel (Esc). Every text is set as text;
// only the code the server highlighted is set as HTML. Enter runs only while Run, or
// nothing that takes keys, has focus; high-risk code runs on the second press, which the
// server enforces (the first press gets a one-time confirmation, 428).
"use strict";

const $ = (selector) => document.querySelector(selector);
const view = $("#view");
const state = {
  conversation: "",   // the conversation the next request continues ("" = a new one)
  ownTurn: "",        // the turn this page started and that is still running
  live: new Map(),    // turn id -> its place in the view, while it runs
  pending: null,      // {proposal, card, editing, confirm, sending}
  proposals: {},      // proposal id -> its data (to show an edit beside it)
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function stamp(node) {
  // When the element reached the DOM, as wall-clock ms (what python -m benchmarks.bench reads).
  node.dataset.rendered = String(performance.timeOrigin + performance.now());
  return node;
}

// A place is where one turn (or one conversation from history) is drawn: its element,
// and the answer and output blocks that streaming text and output go into.
function place(root) {
  return {root, answer: null, output: null};
}

function add(where, node) {
  const empty = view.querySelector(".empty");
  if (empty) empty.remove();
  where.root.appendChild(stamp(node));
  view.scrollTop = view.scrollHeight;
  return node;
}

function clock(ts) {
  const when = ts ? new Date(ts * 1000) : new Date();
  return when.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

async function request(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  return {response, data};
}

async function api(path, body) {
  const {response, data} = await request(path, body);
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function setStatus(text, kind) {
  const status = $("#status");
  status.textContent = text;
  status.className = `status ${kind || "idle"}`;
}

// Rendering: live events and journal records share one vocabulary.

function render(where, data) {
  switch (data.kind) {
    case "user":
      where.answer = null;
      add(where, el("div", "turn-head", clock(data.ts)));
      add(where, el("div", "user", data.text));
      break;
    case "text":
      if (!where.answer) where.answer = add(where, el("div", "answer", ""));
      where.answer.textContent += data.text;
      break;
    case "assistant": {
      const words = data.shown ?? data.text;  // shown: the words without a fenced reply's code
      if (words) add(where, el("div", "answer", words));
      break;
    }
    case "proposal":
      where.answer = null;
      state.proposals[data.id] = data;
      renderProposal(where, data);
      break;
    case "approval":
      renderApproval(where, data);
      break;
    case "output":
      if (!where.output) where.output = add(where, el("pre", "output"));
      where.output.appendChild(el("span", data.stream === "stderr" ? "stderr" : "", data.text));
      where.output.scrollTop = where.output.scrollHeight;
      break;
    case "run_end":
      renderRunEnd(where, data);
      break;
    case "notice":
      add(where, el("div", "notice", data.text));
      break;
    case "tried": {
      // A try that failed in a copy of the files: one line, its code one click away.
      where.answer = null;  // the next reply's words go below it
      const tried = add(where, el("details", "tried"));
      tried.appendChild(el("summary", "", data.text));
      tried.appendChild(el("pre", "code")).innerHTML = data.html;  // escaped by the server
      break;
    }
    case "error":
      add(where, el("div", "error", data.text || data.message || ""));
      break;
    case "usage":
      if (where.answer) {
        where.answer.title = `${data.model}: ${data.prompt_tokens} + ${data.completion_tokens} tokens`;
      }
      break;
    case "turn_end":
      where.answer = null;
      if (data.reason !== "answered") {
        add(where, el("div", "notice", `The turn ended: ${data.reason.replace(/_/g, " ")}.`));
      }
      break;
  }
}

function renderProposal(where, data) {
  const card = add(where, el("div", `proposal risk-${data.risk}`));
  card.dataset.id = data.id;
  const head = card.appendChild(el("div", "head"));
  head.appendChild(el("strong", "", data.language));
  head.appendChild(el("span", `badge ${data.risk}`, `${data.risk} risk`));
  if (data.reasons && data.reasons.length) {
    const reasons = card.appendChild(el("ul", "reasons"));
    for (const reason of data.reasons) reasons.appendChild(el("li", "", reason));
  }
  const code = card.appendChild(el("pre", "code"));
  code.innerHTML = data.html;  // highlighted and escaped by the server (pygments)
  if (data.effect_lines && data.effect_lines.length) {
    // The previewed effect first (what the code does); the code one click away.
    const effect = el("div", "effect");
    effect.appendChild(el("strong", "", data.effect_lines[0]));
    for (const line of data.effect_lines.slice(1)) effect.appendChild(el("div", "", line));
    head.after(effect);
    code.hidden = data.code_hidden;
    const toggle = el("button", "show-code", code.hidden ? "Show code" : "Hide code");
    toggle.type = "button";
    toggle.addEventListener("click", () => {
      code.hidden = !code.hidden;
      toggle.textContent = code.hidden ? "Show code" : "Hide code";
    });
    code.before(toggle);
  }
}

function ask(where, data) {
  // A proposal of a live turn waits for a decision: show its buttons.
  const card = where.root.querySelector(`.proposal[data-id="${CSS.escape(data.id)}"]`);
  if (!card || card.querySelector(".actions")) return;
  const actions = card.appendChild(el("div", "actions"));
  const run = actions.appendChild(el("button", "run", data.risk === "high" ? "Run (high risk)" : "Run"));
  const edit = actions.appendChild(el("button", "edit", "Edit"));
  const cancel = actions.appendChild(el("button", "cancel", "Cancel"));
  actions.appendChild(el("span", "hint", "Enter runs (on Run) · Esc cancels"));
  for (const button of [run, edit, cancel]) button.type = "button";
  state.pending = {proposal: data, card, editing: null, confirm: "", sending: false};
  run.addEventListener("click", () => decide(true));
  edit.addEventListener("click", startEditing);
  cancel.addEventListener("click", () => decide(false));
  setStatus("waiting for you", "waiting");
  run.focus();
}

function startEditing() {
  const pending = state.pending;
  if (!pending || pending.editing) return;
  const area = el("textarea", "code-edit");
  area.value = pending.proposal.code;
  area.spellcheck = false;
  pending.card.querySelector(".code").replaceWith(area);
  pending.editing = area;
  area.addEventListener("input", () => disarm(pending));  // a confirmation names the code
  area.focus();
}

function disarm(pending) {
  pending.confirm = "";
  const run = pending.card.querySelector(".run");
  if (!run) return;
  run.classList.remove("armed");
  run.textContent = pending.proposal.risk === "high" ? "Run (high risk)" : "Run";
}

function arm(pending, confirm) {
  // The server took the first press on high-risk code: nothing ran; the next press runs.
  pending.confirm = confirm;
  const run = pending.card.querySelector(".run");
  run.classList.add("armed");
  run.textContent = "Run high-risk code: press again";
  run.focus();
}

async function decide(approved) {
  const pending = state.pending;
  if (!pending || pending.sending) return;
  pending.sending = true;  // one request at a time: a press meanwhile is not another press
  const proposal = pending.proposal;
  const code = pending.editing ? pending.editing.value : proposal.code;
  const body = {approved, sha256: await sha256(proposal.code)};
  if (approved && code !== proposal.code) body.code = code;
  if (approved && pending.confirm) body.confirm = pending.confirm;
  const path = `/api/proposals/${encodeURIComponent(proposal.id)}/decision`;
  const {response, data} = await request(path, body).catch((error) => (
    {response: {ok: false, status: 0}, data: {error: error.message}}));
  pending.sending = false;
  const waiting = state.pending === pending;  // not answered elsewhere meanwhile
  if (waiting && response.status === 428 && data.confirm) {
    arm(pending, data.confirm);
    return;
  }
  if (response.ok || !waiting || response.status !== 409) {
    if (waiting) state.pending = null;
    const actions = pending.card.querySelector(".actions");
    if (actions) actions.remove();
  } else {  // refused, and the proposal still waits: decide again
    disarm(pending);
  }
  if (!response.ok) {
    pending.card.appendChild(el("div", "error", `The decision was not taken: ${data.error ||
      response.status}`));
  }
}

function renderApproval(where, data) {
  if (state.pending && state.pending.proposal.id === data.proposal_id) {
    const actions = state.pending.card.querySelector(".actions");
    if (actions) actions.remove();  // answered elsewhere (the popup, the tray, a voice)
    state.pending = null;
  }
  const card = where.root.querySelector(`.proposal[data-id="${CSS.escape(data.proposal_id)}"]`);
  const proposal = state.proposals[data.proposal_id];
  if (card && data.approved && proposal && data.code && data.code !== proposal.code) {
    const edited = el("pre", "code edited", data.code);
    const old = card.querySelector(".code, .code-edit");
    if (old) old.replaceWith(edited); else card.appendChild(edited);
  }
  const verdict = `${data.approved ? "Approved" : "Not run"} by ${data.decided_by}` +
    (data.reason ? `: ${data.reason}` : "");
  const line = el("div", data.approved ? "decided" : "decided no", verdict);
  if (card) card.appendChild(stamp(line)); else add(where, line);
  where.output = null;
  if (data.approved && state.live.size) setStatus("running", "busy");
  else if (state.live.size) setStatus("working", "busy");
}

function renderRunEnd(where, data) {
  if (!where.output && data.output) add(where, el("pre", "output", data.output));
  where.output = null;
  let text = data.exit_status === null ? "stopped" : `exit ${data.exit_status}`;
  if (data.timed_out) text += " · timed out";
  if (data.interrupted) text += " · interrupted";
  if (data.waiting_for_input) text += " · was waiting for input";
  if (data.limit) text += ` · ${data.limit} limit`;
  add(where, el("div", "run-end", `${text} · ${Number(data.seconds).toFixed(2)} s`));
}

// The event stream: every live turn, including the daemon's voice turns.

const shown = {};  // turn id -> index of its last event shown (a reconnect replays them)

function follow() {
  const events = new EventSource("/api/events");
  const kinds = ["user", "text", "proposal", "approval", "output", "run_end", "notice",
    "tried", "error", "usage", "turn_end"];
  for (const kind of kinds) {
    events.addEventListener(kind, (message) => onEvent(JSON.parse(message.data),
      message.lastEventId));
  }
  events.onerror = async () => {
    setStatus("reconnecting…", "waiting");
    const probe = await fetch("/api/turns").catch(() => null);
    if (probe && probe.status === 401) {  // the token was replaced (--new-token)
      events.close();
      setStatus("locked out", "waiting");
      add(place(view), el("div", "error", "This page's token is no longer valid: open the " +
        "address `assistant serve` printed last."));
    }
  };
  events.onopen = () => setStatus(state.live.size ? "working" : "idle",
    state.live.size ? "busy" : "idle");
}

function onEvent(data, eventId) {
  const dot = eventId.lastIndexOf(".");
  const turn = eventId.slice(0, dot);
  const index = Number(eventId.slice(dot + 1));
  if (index <= (shown[turn] ?? -1)) return;
  shown[turn] = index;
  let where = state.live.get(turn);
  if (!where) {
    if (data.kind !== "user") return;  // a turn that began before this page
    where = place(view.appendChild(el("section", "turn")));
    where.root.dataset.turn = turn;
    state.live.set(turn, where);
    setStatus("working", "busy");
    $("#interrupt").hidden = false;
  }
  render(where, data);
  if (data.kind === "proposal") ask(where, data);
  if (data.kind === "turn_end") ended(turn, data);
}

function ended(turn, data) {
  state.live.delete(turn);
  if (turn === state.ownTurn) state.ownTurn = "";
  if (data.conversation_id && (!state.live.size || !state.conversation)) {
    state.conversation = data.conversation_id;
    $("#where").textContent = data.conversation_id;
  }
  if (!state.live.size) {
    setStatus("idle", "idle");
    $("#interrupt").hidden = true;
    $("#request").disabled = false;
    $("#request").focus();
  }
  loadConversations();
}

// Requests, interrupts, keys.

async function send(event) {
  event.preventDefault();
  const box = $("#request");
  const text = box.value.trim();
  if (!text || state.ownTurn) return;
  box.value = "";
  box.disabled = true;
  try {
    const turn = await api("/api/turns", {text, conversation_id: state.conversation});
    state.ownTurn = turn.turn_id;
  } catch (error) {
    add(place(view), el("div", "error", error.message));
    box.disabled = false;
    box.value = text;
  }
}

async function interrupt() {
  for (const turn of state.live.keys()) {
    await api(`/api/turns/${encodeURIComponent(turn)}/interrupt`, {}).catch(() => {});
  }
}

async function undo() {
  // Put back what the latest run changed; the sentence (or why not) is shown in the view.
  let said, kind = "notice";
  try {
    said = (await api("/api/undo", {})).said;
  } catch (error) {
    said = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
    kind = "notice error";
  }
  add({root: view}, el("div", `${kind} undone`, said));
}

const TAKES_KEYS = "button, input, textarea, select, a[href], [contenteditable], [tabindex]";

function onKey(event) {
  // Esc cancels from anywhere. Enter runs only on Run itself, or with nothing that takes
  // keys focused: never on Edit or Cancel, in the editor, the search or the request box.
  const pending = state.pending;
  if (!pending || event.repeat || event.isComposing) return;
  if (event.key === "Escape") {
    event.preventDefault();
    decide(false);
    return;
  }
  if (event.key !== "Enter" || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) {
    return;
  }
  const focused = document.activeElement;
  const run = pending.card.querySelector("button.run");
  const free = !focused || focused === document.body || !focused.matches(TAKES_KEYS);
  if (focused === run || free) {
    event.preventDefault();
    decide(true);
  }
}

// History.

let searchTimer = 0;

async function loadConversations() {
  const query = $("#search").value.trim();
  const rows = await api(`/api/conversations?limit=100&q=${encodeURIComponent(query)}`);
  const list = $("#conversations");
  list.replaceChildren();
  for (const row of rows) {
    const item = el("li", row.id === state.conversation ? "current" : "");
    item.dataset.id = row.id;
    item.appendChild(el("span", "title", row.title || row.id));
    item.appendChild(el("span", "meta",
      `${new Date(row.updated * 1000).toLocaleString()} · ${row.turns} turn${row.turns === 1 ? "" : "s"}`));
    item.addEventListener("click", () => openConversation(row.id));
    list.appendChild(item);
  }
}

function showOnly(...nodes) {
  // Replace the view, keeping the live turns at its end: they are still running.
  view.replaceChildren(...nodes, ...Array.from(state.live.values(), (where) => where.root));
}

async function openConversation(id) {
  const found = await api(`/api/conversations/${encodeURIComponent(id)}`);
  state.conversation = found.id;
  $("#where").textContent = `${found.id} · ${found.model}`;
  const history = place(el("section", "history"));
  for (const record of found.records) {
    render(history, record);
    if (record.kind === "run_end" || record.kind === "usage") {
      const last = history.root.lastElementChild;
      if (last && record.ts) last.appendChild(el("span", "timing", ` · ${clock(record.ts)}`));
    }
  }
  showOnly(history.root);
  for (const item of document.querySelectorAll("#conversations li")) {
    item.classList.toggle("current", item.dataset.id === found.id);
  }
}

function newConversation() {
  state.conversation = "";
  $("#where").textContent = "";
  showOnly(el("p", "empty", "A new conversation: ask for something below."));
  $("#request").focus();
}

document.addEventListener("DOMContentLoaded", () => {
  $("#ask").addEventListener("submit", send);
  $("#request").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) send(event);
  });
  $("#interrupt").addEventListener("click", interrupt);
  $("#new").addEventListener("click", newConversation);
  $("#undo").addEventListener("click", undo);
  $("#search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(loadConversations, 200);
  });
  document.addEventListener("keydown", onKey);
  loadConversations();
  follow();
  $("#request").focus();
});
