// One comparison for the Node tests: the largest error between two JSON trees of numbers
// (arrays and objects of them, nulls matching nulls), relative to max(1, |expected|); a shape
// mismatch is Infinity so it can never pass.
export function maxError(actual, expected, path = '') {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return { error: Infinity, where: path };
    const e = Math.abs(actual - expected) / Math.max(1, Math.abs(expected));
    return { error: Number.isNaN(e) ? Infinity : e, where: path };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { error: Infinity, where: `${path} (shape)` };
    let worst = { error: 0, where: path };
    expected.forEach((v, i) => {
      const r = maxError(actual[i], v, `${path}[${i}]`);
      if (r.error > worst.error) worst = r;
    });
    return worst;
  }
  if (expected === null) return { error: actual === null ? 0 : Infinity, where: path };  // a running maximum not started
  if (typeof expected === 'object') {  // decode steps, online blocks: key by key
    if (actual === null || typeof actual !== 'object' || Object.keys(actual).length !== Object.keys(expected).length) {
      return { error: Infinity, where: `${path} (keys)` };
    }
    let worst = { error: 0, where: path };
    for (const [k, v] of Object.entries(expected)) {
      const r = maxError(actual[k], v, `${path}.${k}`);
      if (r.error > worst.error) worst = r;
    }
    return worst;
  }
  return { error: Infinity, where: `${path} (not a number)` };
}
