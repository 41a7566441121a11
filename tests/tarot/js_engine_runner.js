// Reads JSON lines {rules, hand, pools} on stdin, answers one JSON line each:
// {halves, pools} from static/js/tarot_engine.js, or {code} for a refusal.
// Driven by tests/tarot/test_js_engine.py.
"use strict";
const path = require("path");
const readline = require("readline");
const engine = require(path.join(__dirname, "..", "..", "static", "js", "tarot_engine.js"));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
lines.on("line", (line) => {
  if (!line) return;
  const item = JSON.parse(line);
  try {
    const result = engine.scoreHand(item.rules, item.hand, item.pools);
    out.push(JSON.stringify({ halves: result.halves, pools: result.pools }));
  } catch (error) {
    out.push(JSON.stringify({ code: error.code || String(error) }));
  }
});
lines.on("close", () => process.stdout.write(out.join("\n") + "\n"));
