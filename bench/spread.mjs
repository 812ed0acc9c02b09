// Several runs of one figure, summarised alike by the bench and the profiles.
export const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

/** Several runs of one figure: their median, least and most (the spread), and every run. */
export const spread = (runs) => ({ median: quantile(runs, 0.5), min: Math.min(...runs), max: Math.max(...runs), runs });
