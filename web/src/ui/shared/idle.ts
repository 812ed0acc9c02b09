/** `f` in an idle slot (within a second), or soon where there are none. */
export const idle = (f: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(() => f(), { timeout: 1000 }) : setTimeout(f, 100));
