// The width under which a playground takes its phone layout: narrower than this (in the
// element's own width), the controls fold under the results. Its styles say the same with
// container queries (`@container (width < 760px)`: playground-styles.ts, and page.css for the
// page's written first screen); the number is here for what only script can do: folding the
// settings into a disclosure, and choosing which first screen to draw before the element's code.
export const NARROW = 760;

/** Whether an element not drawn yet will take its phone layout: a block appended to it is as
 *  wide as it will be. */
export function willBeNarrow(el: Element): boolean {
  const probe = el.appendChild(document.createElement('div'));
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return width < NARROW;
}
