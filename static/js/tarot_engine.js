/* The engine's scoring of French Tarot, in the page: the preview offline.
   A port of tarot/rulesets/ (base.py, fft, pousse, contre5, fixed, mouches,
   two_players) and of the refusals of tarot/validate.py, on integers of half
   points as the engine (RULES.md §1 to §5). The Savoyard rules are not ported:
   TarotEngine.covers(rules) says false and the page says "score on save".

   tests/tarot/test_js_engine.py runs this file in Node against the Python
   engine on 20,000 random hands (tarot.randomhands): the same numbers.

   TarotEngine.scoreHand(rules, hand, pools) → {halves: [...], pools: [...] | null}
   (mouches: `pools` are the pools before the hand, the result's those after it)
   or throws {code, field, message}. `rules` is Rules.as_dict() (HAND_FORMAT.md),
   `hand` a hand of the JSON format with its "players". No DOM: it runs in Node. */
(function (root) {
  "use strict";

  var ATTACK = "attack";
  var DEFENCE = "defence";
  var DECK = {
    total: 91,
    bouts: 3,
    targetHalves: [112, 102, 82, 72],
    boundsHalves: [
      [0, 2 * (91 - 12)],
      [8, 2 * (91 - 8)],
      [16, 2 * (91 - 4)],
      [24, 182],
    ],
    halfPointsAt: [3, 4, 5],
    chelemAttackMin: 87,
    chelemDefenceMaxPoints: 4,
    chelemDefenceMaxBouts: 1,
  };
  var POIGNEE_INDEX = { single: 0, double: 1, triple: 2 };
  var BASE_MULTIPLIERS = { prise: 1, garde: 2, garde_sans: 4, garde_contre: 6 };

  function key(announced, madeBy) {
    return (announced ? "1" : "0") + ":" + (madeBy || "");
  }
  function table(entries) {
    var out = {};
    entries.forEach(function (entry) {
      out[key(entry[0], entry[1])] = entry[2];
    });
    return out;
  }
  var FFT_CHELEM = table([
    [true, ATTACK, 400],
    [true, null, -200],
    [true, DEFENCE, -400],
    [false, ATTACK, 200],
    [false, null, 0],
    [false, DEFENCE, -200],
  ]);
  var CHELEM_OUTCOME = table([
    [true, ATTACK, "announced_made"],
    [true, null, "announced_failed"],
    [true, DEFENCE, "announced_defence"],
    [false, ATTACK, "unannounced_made"],
    [false, null, "none"],
    [false, DEFENCE, "defence"],
  ]);

  function same(value) {
    var out = {};
    Object.keys(BASE_MULTIPLIERS).forEach(function (name) {
      out[name] = value;
    });
    return out;
  }

  var TAROT = {
    multipliers: BASE_MULTIPLIERS,
    bases: same(25),
    marginStep: 1,
    petitAuBout: 10,
    chelem: FFT_CHELEM,
    petitChelem: null,
    counts: [3, 4, 5],
    pools: false,
    headsUp: false,
  };
  function ruleset(changes) {
    var out = {};
    Object.keys(TAROT).forEach(function (name) {
      out[name] = name in changes ? changes[name] : TAROT[name];
    });
    return out;
  }
  var POUSSE = { prise: 1, pousse: 2, garde: 4, garde_sans: 8, garde_contre: 12 };
  var RULESETS = {
    fft: TAROT,
    pousse: ruleset({
      multipliers: POUSSE,
      bases: { prise: 25, pousse: 25, garde: 25, garde_sans: 25, garde_contre: 25 },
    }),
    contre5: ruleset({
      multipliers: { prise: 1, garde: 2, garde_sans: 4, garde_contre: 5 },
      petitChelem: table([
        [true, ATTACK, 300],
        [true, null, -150],
        [true, DEFENCE, -150],
        [false, ATTACK, 0],
        [false, null, 0],
        [false, DEFENCE, 0],
      ]),
    }),
    fixed: ruleset({
      multipliers: { garde: 1, garde_sans: 1, garde_contre: 1 },
      bases: { garde: 80, garde_sans: 160, garde_contre: 320 },
      marginStep: 10,
      chelem: table([
        [true, ATTACK, 1000],
        [true, null, -200],
        [true, DEFENCE, -400],
        [false, ATTACK, 1000],
        [false, null, 0],
        [false, DEFENCE, -200],
      ]),
      petitChelem: table([
        [true, ATTACK, 500],
        [true, null, 0],
        [true, DEFENCE, 0],
        [false, ATTACK, 500],
        [false, null, 0],
        [false, DEFENCE, 0],
      ]),
    }),
    mouches: ruleset({ bases: same(0), pools: true }),
    two_players: ruleset({ multipliers: {}, bases: {}, counts: [2], headsUp: true }),
  };

  var DEFAULTS = {
    rounding: 1,
    poignee: [20, 30, 40],
    misere: 0,
    no_prise: false,
    five_player_split: "two_to_one",
    ante: 10,
    dealer_stake: 5,
  };

  function refuse(code, field, message) {
    var error = new Error(message || code);
    error.code = code;
    error.field = field || null;
    throw error;
  }

  function covers(rules) {
    return !!(rules && Object.prototype.hasOwnProperty.call(RULESETS, rules.preset));
  }

  /* rules.as_dict() → the options with the defaults filled in, and the contracts. */
  function options(rules) {
    if (!covers(rules)) refuse("rules_invalid", "rules", "not ported: score on save");
    var out = { preset: rules.preset, set: RULESETS[rules.preset] };
    Object.keys(DEFAULTS).forEach(function (name) {
      out[name] = name in rules ? rules[name] : DEFAULTS[name];
    });
    var multipliers = {};
    Object.keys(out.set.multipliers).forEach(function (name) {
      if (!(out.no_prise && name === "prise")) multipliers[name] = out.set.multipliers[name];
    });
    out.multipliers = multipliers;
    return out;
  }

  /* Round to the nearest multiple of step, halves away from zero (RULES.md §2). */
  function roundTo(value, step) {
    if (step === 1) return value;
    var magnitude = Math.abs(value);
    var rest = magnitude % step;
    magnitude -= rest;
    if (2 * rest >= step) magnitude += step;
    return value >= 0 ? magnitude : -magnitude;
  }

  function seated(players, name, field) {
    if (players.indexOf(name) < 0) refuse("player_not_at_table", field);
  }

  function chelemKey(value, field) {
    if (value === null || value === undefined) return null;
    var announced = value.announced === undefined ? false : value.announced;
    var madeBy = value.made_by === undefined ? null : value.made_by;
    if (announced !== true && announced !== false) refuse("chelem_invalid", field);
    if (madeBy !== null && madeBy !== ATTACK && madeBy !== DEFENCE) refuse("chelem_invalid", field);
    return { announced: announced, madeBy: madeBy, key: key(announced, madeBy) };
  }

  /* tarot/validate.py: seating, then the played hand's refusals. */
  function validate(o, hand) {
    var set = o.set;
    var players = hand.players || [];
    var nseat = players.length;
    if (nseat < 2 || nseat > 6) refuse("seat_count", "players");
    players.forEach(function (p, i) {
      if (players.indexOf(p) !== i) refuse("duplicate_player", "players");
    });
    var out = hand.sits_out === undefined ? null : hand.sits_out;
    var n = nseat;
    if (out !== null) {
      seated(players, out, "sits_out");
      n = nseat - 1;
    }
    if (set.counts.indexOf(n) < 0) refuse("player_count", "players");
    var dealer = hand.dealer === undefined ? null : hand.dealer;
    if (dealer !== null) seated(players, dealer, "dealer");
    else if (set.pools) refuse("dealer_required", "dealer");
    var miseres = hand.miseres || [];
    if (miseres.length) {
      if (!o.misere) refuse("misere_not_allowed", "miseres");
      miseres.forEach(function (name, i) {
        seated(players, name, "miseres");
        if (name === out) refuse("player_sits_out", "miseres");
        if (miseres.indexOf(name) !== i) refuse("duplicate_player", "miseres");
      });
    }
    var v = { n: n, out: out, taker: null, partner: null, multiplier: 0, bouts: 0, ph: 0 };
    var taker = hand.taker === undefined ? null : hand.taker;
    if (taker === null) return v;
    seated(players, taker, "taker");
    if (taker === out) refuse("player_sits_out", "taker");
    var partner = hand.partner === undefined ? null : hand.partner;
    if (set.headsUp) {
      if (hand.contract !== undefined && hand.contract !== null) refuse("contract_unknown", "contract");
      if (partner !== null && partner !== taker) refuse("partner_not_five", "partner");
      if ((hand.poignees || []).length) refuse("poignee_not_allowed", "poignees");
      v.multiplier = 1;
      partner = null;
    } else {
      if (!Object.prototype.hasOwnProperty.call(o.multipliers, hand.contract)) {
        refuse("contract_unknown", "contract");
      }
      v.multiplier = o.multipliers[hand.contract];
      if (partner === taker) partner = null;
      if (partner !== null) {
        if (n !== 5) refuse("partner_not_five", "partner");
        seated(players, partner, "partner");
        if (partner === out) refuse("player_sits_out", "partner");
      }
    }
    v.taker = taker;
    v.partner = partner;
    var bouts = hand.bouts === undefined ? 0 : hand.bouts;
    if (typeof bouts !== "number" || bouts % 1 !== 0 || bouts < 0 || bouts > DECK.bouts) {
      refuse("bouts_out_of_range", "bouts");
    }
    var points = hand.points === undefined ? 0 : Number(hand.points);
    if (typeof points !== "number" || isNaN(points)) refuse("invalid_field", "points");
    if (points < 0 || points > DECK.total) refuse("points_out_of_range", "points");
    var ph = points * 2;
    if (ph % 1 !== 0) refuse("points_step", "points");
    if (ph % 2 === 1 && DECK.halfPointsAt.indexOf(n) < 0) refuse("half_point_impossible", "points");
    var bounds = DECK.boundsHalves[bouts];
    if (ph < bounds[0] || ph > bounds[1]) refuse("points_bouts_inconsistent", "points");
    v.bouts = bouts;
    v.ph = ph;
    var pab = hand.petit_au_bout === undefined ? null : hand.petit_au_bout;
    if (pab === ATTACK && bouts === 0) refuse("petit_au_bout_inconsistent", "petit_au_bout");
    else if (pab === DEFENCE && bouts === DECK.bouts) {
      refuse("petit_au_bout_inconsistent", "petit_au_bout");
    } else if (pab !== null && pab !== ATTACK && pab !== DEFENCE) {
      refuse("petit_au_bout_invalid", "petit_au_bout");
    }
    var shown = [];
    (hand.poignees || []).forEach(function (poignee) {
      seated(players, poignee.player, "poignees");
      if (poignee.player === out) refuse("player_sits_out", "poignees");
      if (shown.indexOf(poignee.player) >= 0) refuse("poignee_twice", "poignees");
      shown.push(poignee.player);
      if (!Object.prototype.hasOwnProperty.call(POIGNEE_INDEX, poignee.size)) {
        refuse("poignee_size_unknown", "poignees");
      }
    });
    v.chelem = chelemKey(hand.chelem, "chelem");
    if (v.chelem && v.chelem.madeBy === ATTACK && ph < 2 * DECK.chelemAttackMin) {
      refuse("chelem_points_inconsistent", "chelem");
    }
    if (
      v.chelem &&
      v.chelem.madeBy === DEFENCE &&
      (ph > 2 * DECK.chelemDefenceMaxPoints || bouts > DECK.chelemDefenceMaxBouts)
    ) {
      refuse("chelem_points_inconsistent", "chelem");
    }
    v.petit = chelemKey(hand.petit_chelem, "petit_chelem");
    if (v.petit && set.petitChelem === null) {
      if (v.petit.key !== key(false, null)) refuse("petit_chelem_not_scored", "petit_chelem");
      v.petit = null;
    }
    return v;
  }

  /* Misères (§2) and the pools (§3), paid in halves. */
  function extras(o, hand, v, halves, made, pools) {
    var players = hand.players;
    var miseres = hand.miseres || [];
    miseres.forEach(function (name) {
      players.forEach(function (player, i) {
        if (player !== v.out) halves[i] -= 2 * o.misere;
      });
      halves[players.indexOf(name)] += 2 * o.misere * v.n;
    });
    if (!o.set.pools) return null;
    var after = (pools || []).slice();
    if (!after.length) {
      players.forEach(function (player, i) {
        halves[i] -= 2 * o.ante;
      });
      after.push(o.ante * players.length);
    }
    var largest = Math.max.apply(null, after);
    after[after.indexOf(largest)] += o.dealer_stake;
    halves[players.indexOf(hand.dealer)] -= 2 * o.dealer_stake;
    if (v.taker !== null) {
      largest = Math.max.apply(null, after);
      var ti = players.indexOf(v.taker);
      if (made) {
        after.splice(after.indexOf(largest), 1);
        halves[ti] += 2 * largest;
      } else {
        after.push(largest);
        halves[ti] -= 2 * largest;
      }
    }
    return after;
  }

  function scoreHand(rules, hand, pools) {
    var o = options(rules);
    var set = o.set;
    var v = validate(o, hand);
    var players = hand.players;
    var halves = players.map(function () {
      return 0;
    });
    var result = { halves: halves, pools: null, taker: v.taker, partner: v.partner, out: v.out };
    if (v.taker === null) {
      result.pools = extras(o, hand, v, halves, false, pools);
      return result;
    }
    var pab = hand.petit_au_bout === undefined ? null : hand.petit_au_bout;
    var marginH = v.ph - DECK.targetHalves[v.bouts];
    var made = marginH >= 0;
    var amount;
    if (set.headsUp) {
      // §4: 25 + the winner's margin, seen from the winner's side
      var margin2 = made
        ? marginH >> 1
        : (2 * DECK.total - v.ph - DECK.targetHalves[DECK.bouts - v.bouts]) >> 1;
      amount = made ? 25 + margin2 : -(25 + margin2);
      if (pab !== null) amount += pab === ATTACK ? 10 : -10;
      if (v.chelem) amount += FFT_CHELEM[v.chelem.key];
    } else {
      var margin = (Math.abs(marginH) + 1) >> 1; // §1.2: the half to the winner
      if (set.marginStep !== 1) margin = roundTo(margin, set.marginStep);
      var won = (set.bases[hand.contract] + margin) * v.multiplier; // §1.3
      amount = made ? won : -won;
      if (pab !== null) {
        var bonus = set.petitAuBout * v.multiplier; // §1.4
        amount += pab === ATTACK ? bonus : -bonus;
      }
      var poignee = 0;
      (hand.poignees || []).forEach(function (shown) {
        poignee += o.poignee[POIGNEE_INDEX[shown.size]]; // §1.5
      });
      amount += made ? poignee : -poignee;
      if (v.chelem) amount += set.chelem[v.chelem.key]; // §1.6
      if (v.petit) amount += set.petitChelem[v.petit.key];
    }
    var perDefender = o.rounding !== 1 ? roundTo(amount, o.rounding) : amount;
    var s2 = perDefender * 2;
    players.forEach(function (player, i) {
      if (player !== v.out) halves[i] = -s2;
    });
    var ti = players.indexOf(v.taker);
    if (set.headsUp) {
      halves[ti] = s2;
    } else if (v.partner === null) {
      halves[ti] = s2 * (v.n - 1); // §1.7
    } else {
      var pi = players.indexOf(v.partner);
      if (o.five_player_split === "equal") {
        halves[ti] = halves[pi] = 3 * perDefender;
      } else {
        halves[ti] = 2 * s2;
        halves[pi] = s2;
      }
    }
    result.made = made;
    result.pools = extras(o, hand, v, halves, made, pools);
    return result;
  }

  /* Whether the rules carry pools from hand to hand (mouches): the preview then needs
     the pools before the hand (the server's, and the hands waiting in the queue). */
  function hasPools(rules) {
    return covers(rules) && RULESETS[rules.preset].pools;
  }

  var api = {
    covers: covers,
    hasPools: hasPools,
    scoreHand: scoreHand,
    presets: Object.keys(RULESETS),
    CHELEM_OUTCOME: CHELEM_OUTCOME,
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.TarotEngine = api;
})(typeof self !== "undefined" ? self : this);
