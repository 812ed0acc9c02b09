// A whole number with its thousands grouped, as the page writes counts (12,345). One formatter
// for the page: toLocaleString makes one per call, which a view drawn on every keystroke paid.
export const count: (n: number) => string = new Intl.NumberFormat('en').format;
