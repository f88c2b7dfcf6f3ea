'use strict';
// Loaded (--require) into a Node runtime in a what-if world. overlayfs without
// redirect_dir answers EXDEV to renaming a folder that was there before, where the real
// rename works: a copy and a delete show the same effect.
const fs = require('fs');

function moveFolder(from, to) {
  fs.cpSync(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  fs.rmSync(from, { recursive: true, force: true });
}

const renameSync = fs.renameSync;
fs.renameSync = function rename(from, to) {
  try {
    return renameSync(from, to);
  } catch (error) {
    if (error.code !== 'EXDEV' || !fs.statSync(from).isDirectory()) throw error;
    return moveFolder(from, to);
  }
};

const rename = fs.rename;
fs.rename = function renameLater(from, to, callback) {
  rename(from, to, (error) => {
    if (!error || error.code !== 'EXDEV') { callback(error); return; }
    try { moveFolder(from, to); callback(null); } catch (again) { callback(again); }
  });
};

const renamePromise = fs.promises.rename;
fs.promises.rename = async function renamePromised(from, to) {
  try {
    return await renamePromise(from, to);
  } catch (error) {
    if (error.code !== 'EXDEV') throw error;
    return moveFolder(from, to);
  }
};
