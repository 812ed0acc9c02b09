// A text said twice, read off the trained model's trace by the journeys themselves (not by the
// page's code): where its second copy starts, its rows and what each should look at, and which
// head copies it.

/** A text said twice as tokens, its first copy `firstCopy` tokens long: the lag L at which the
 *  second copy starts, and its rows: the tokens from L on that repeat the one L back (after the
 *  space a first word may be split otherwise), each row's target the token right after that
 *  earlier twin, at i - L + 1. */
export function secondCopy(tokens, firstCopy) {
  const L = tokens.length - firstCopy;
  return { L, rows: Array.from({ length: tokens.length - L }, (_, k) => L + k).filter((i) => tokens[i] === tokens[i - L]) };
}

const argmax = (xs) => xs.indexOf(Math.max(...xs));

/** Of the heads whose probe induction score is at least 0.3, the one whose largest weight is on
 *  the target in the most rows of the second copy, then with the larger mean weight there (layer
 *  from 1, head from 0), with those figures; null when no head is an induction head. */
export function copier(trace, firstCopy) {
  const { L, rows } = secondCopy(trace.tokens, firstCopy);
  let best = null;
  trace.probe_head_scores.forEach((heads, l) => heads.forEach((s, h) => {
    if (s.induction < 0.3) return;
    const w = trace.layers[l].weights[h];
    const hits = rows.filter((i) => argmax(w[i]) === i - L + 1).length;
    const mean = rows.reduce((a, i) => a + w[i][i - L + 1], 0) / rows.length;
    if (!best || hits > best.hits || (hits === best.hits && mean > best.mean)) best = { layer: l + 1, head: h, hits, mean, rows: rows.length, L };
  }));
  return best;
}
