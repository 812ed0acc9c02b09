// Where a setting's slider sits while the setting is empty ("auto"): on the value the core chose,
// which its trace says. The element's controls and a link's first screen (ui/pages/linked-screen.ts) both read it.

/** The core's choice for setting `key` in trace `t`, or undefined when the core makes none. */
export function autoValue(key: string, t: { scale?: number; spec?: { d_k?: number } } | null | undefined): number | undefined {
  return key === 'scale' ? t?.scale : key === 'd_k' ? t?.spec?.d_k : undefined;
}
