#!/usr/bin/env node
// Validates glTF files with the Khronos glTF validator (npm gltf-validator) and prints one JSON
// line per file: {"file", "errors", "warnings", "infos", "hints", "messages": [first 20 errors
// and warnings]}. Exit status 0 when every file has no errors and no warnings, 1 otherwise,
// 2 on a usage or I/O problem. External resources (a .gltf's .bin) are read from beside it.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function validate(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        const target = path.resolve(path.dirname(file), decodeURIComponent(uri));
        fs.readFile(target, (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
      }),
  });
  const issues = report.issues;
  const messages = issues.messages
    .filter((m) => m.severity <= 1)
    .slice(0, 20)
    .map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message }));
  return {
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages,
  };
}

(async () => {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: validate.js FILE.glb|FILE.gltf...');
    process.exit(2);
  }
  let clean = true;
  for (const file of files) {
    try {
      const r = await validate(file);
      console.log(JSON.stringify(r));
      if (r.errors > 0 || r.warnings > 0) clean = false;
    } catch (e) {
      console.error(`${file}: ${e}`);
      process.exit(2);
    }
  }
  process.exit(clean ? 0 : 1);
})();
