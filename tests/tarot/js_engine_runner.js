// Reads JSON lines {rules, hand, pools} on stdin, answers one JSON line each:
// {halves, pools} from static/js/tarot_engine.js, or {code} for a refusal;
// {rules, sheet: [hands]}: a whole sheet, the pools carried from hand to hand by the
// page's own scoring, answered {sheet: [{halves, pools} | {code}]}.
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
  if (item.sheet) {
    // a whole sheet: each hand scored with the pools the page's previous hand left
    let pools = [];
    const hands = [];
    for (const hand of item.sheet) {
      try {
        const result = engine.scoreHand(item.rules, hand, pools);
        if (result.pools !== null) pools = result.pools;
        hands.push({ halves: result.halves, pools: result.pools });
      } catch (error) {
        hands.push({ code: error.code || String(error) });
      }
    }
    out.push(JSON.stringify({ sheet: hands }));
    return;
  }
  try {
    const result = engine.scoreHand(item.rules, item.hand, item.pools);
    out.push(JSON.stringify({ halves: result.halves, pools: result.pools }));
  } catch (error) {
    out.push(JSON.stringify({ code: error.code || String(error) }));
  }
});
lines.on("close", () => process.stdout.write(out.join("\n") + "\n"));
