// One comparison for the Node tests: the largest error between two JSON trees of numbers,
// relative to max(1, |expected|); a shape mismatch is Infinity so it can never pass.
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
  return { error: Infinity, where: `${path} (not a number)` };
}
