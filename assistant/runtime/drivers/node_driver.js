'use strict';
// Runs JavaScript for the host in one persistent vm context, so variables live
// between runs. Requests arrive as JSON lines ({token, code}) on the pipe whose fd
// is argv[2], leaving stdin to the program (`--once FILE` runs one file and exits
// with its status: a what-if run). After each run the driver writes the token, the
// exit status and ";" to stdout and stderr: that is how the host knows the run is
// over. A run whose completion value is a Promise ends when it settles.
// Callbacks a run leaves behind (a readFile, a timer) still belong to it: as with
// `node file.js`, the run ends when the event loop holds no more than it did before,
// leaving aside servers that listen, which keep serving between runs.

const fs = require('fs');
const net = require('net');
const path = require('path');
const readline = require('readline');
const util = require('util');
const vm = require('vm');
const { createRequire } = require('module');

const INTERRUPTED = Symbol('interrupted');
const SERVING = new Set(['TCPServerWrap', 'PipeServerWrap', 'UDPWrap']);
let stopWaiting = null;
let failedLater = false; // an error thrown by a callback of the current run

function pending() {
  return process.getActiveResourcesInfo().filter((name) => !SERVING.has(name)).length;
}

const tick = () => new Promise((resolve) => { setTimeout(resolve, 3); })
  .then(() => new Promise((resolve) => { setImmediate(resolve); }));

function makeContext() {
  const context = vm.createContext({});
  const own = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', context));
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    // V8 gives every context a console of its own that prints nothing: use Node's.
    if ((!own.has(name) || name === 'console') && name !== 'global') {
      Object.defineProperty(context, name, Object.getOwnPropertyDescriptor(globalThis, name));
    }
  }
  const here = path.join(process.cwd(), '[run]');
  const module = { exports: {} };
  Object.assign(context, {
    require: createRequire(here),
    module,
    exports: module.exports,
    __filename: here,
    __dirname: process.cwd(),
  });
  vm.runInContext('globalThis.global = globalThis', context);
  return context;
}

function printError(error) {
  const text = error && error.stack ? String(error.stack) : `Uncaught ${util.inspect(error)}`;
  const own = (line) => /^\s+at /.test(line)
    && (line.includes(__filename) || line.includes('node:vm') || line.includes('node:internal'));
  process.stderr.write(`${text.split('\n').filter((line) => !own(line)).join('\n')}\n`);
}

function compile(code, filename) {
  try {
    return new vm.Script(code, { filename });
  } catch (error) {
    if (!(error instanceof SyntaxError) || !code.includes('await')) throw error;
    try {
      // Top-level await: run the code as an async function (its declarations stay local).
      return new vm.Script(`(async () => {${code}\n})()`, { filename });
    } catch {
      throw error;
    }
  }
}

async function settle(before, status) {
  if (status === 130) return status;
  let stopped = false;
  stopWaiting = () => { stopped = true; };
  do await tick(); while (!stopped && pending() > before); // a tick for queued callbacks
  stopWaiting = null;
  if (stopped) return 130;
  return status === 0 && failedLater ? 1 : status;
}

function start(context, code, filename) {
  const options = { breakOnSigint: true };
  try {
    return compile(code, filename).runInContext(context, options);
  } catch (error) {
    // `const fs = require('fs')` again, as every snippet starts: V8 refuses the whole
    // script before it runs a line, so it runs in a block of its own, where its
    // declarations shadow the earlier ones (on the same lines, for the stack traces).
    const again = error && error.name === 'SyntaxError'
      && /has already been declared/.test(error.message);
    if (!again) throw error;
    return compile(`{${code}\n}`, filename).runInContext(context, options);
  }
}

async function execute(context, code, filename) {
  let value;
  try {
    value = start(context, code, filename);
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return 130;
    printError(error);
    return 1;
  }
  if (!value || typeof value.then !== 'function') return 0;
  const interrupted = new Promise((resolve) => { stopWaiting = () => resolve(INTERRUPTED); });
  try {
    return (await Promise.race([value, interrupted])) === INTERRUPTED ? 130 : 0;
  } catch (error) {
    printError(error);
    return 1;
  } finally {
    stopWaiting = null;
  }
}

async function main() {
  process.on('SIGINT', () => { if (stopWaiting) stopWaiting(); });
  const failed = (error) => { failedLater = true; printError(error); };
  process.on('uncaughtException', failed);
  process.on('unhandledRejection', failed);
  process.stdout.write(''); // the output pipes open now, so they count as held before any run
  process.stderr.write('');
  const context = makeContext();
  if (process.argv[2] === '--once') { // one run of a file, then exit with its status (what-if)
    const code = fs.readFileSync(process.argv[3], 'utf8');
    const before = pending();
    process.exit(await settle(before, await execute(context, code, '<run 1>')));
  }
  const control = new net.Socket({ fd: Number(process.argv[2]), readable: true, writable: false });
  let runs = 0;
  for await (const line of readline.createInterface({ input: control, crlfDelay: Infinity })) {
    const { token, code } = JSON.parse(line);
    runs += 1;
    failedLater = false;
    const before = pending();
    const status = await settle(before, await execute(context, code, `<run ${runs}>`));
    process.stdout.write(`${token}${status};`);
    process.stderr.write(`${token}${status};`);
  }
  process.exit(0);
}

main();
