// The typist the page benchmarks imitate, run inside the page (page.evaluate): an edit of the
// sentence every 100 ms, each just after a frame. For each edit, work is the main thread's time
// from the input event to the painted frame that shows the new numbers: the script (run,
// unpack, render the element and the heatmaps in view, or the wait for the worker's answer)
// plus that frame's style, layout and paint, leaving out the idle wait for the display's next
// frame. frame is the same to the wall clock, that wait included (at 60 Hz up to 16.7 ms, so
// the update made the next frame when work fits in one). With marks, each edit leaves
// performance marks edit-K-start and edit-K-painted for the profiler.
export async function editSentence({ edits, tokens, marks = false, characters = false }) {
  const el = document.querySelector('attention-playground');
  const input = el.shadowRoot.querySelector('#c-sentence');
  const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const out = [];
  for (let k = 1; k <= edits; k++) {
    await new Promise((r) => setTimeout(r, 100));
    await nextFrame();
    await new Promise((r) => setTimeout(r, 0));  // after that frame's paint
    if (marks) performance.mark(`edit-${k}-start`);
    const t0 = performance.now();
    const traced = new Promise((r) => el.addEventListener('trace', r, { once: true }));  // large traces come from a worker
    // words for the random model; for the trained model (characters = true) `tokens` characters
    // that no merge of its word pieces joins (capitals and marks), so `tokens` tokens
    input.value = characters
      ? Array.from({ length: tokens }, (_, i) => 'QZXJVK.;:!?'[(i * 7 + k) % 11]).join('')
      : Array.from({ length: tokens }, (_, i) => `w${(i * 7 + k) % 50}`).join(' ');
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await traced;
    await el.updateComplete;
    await Promise.all([...el.shadowRoot.querySelectorAll('ap-heatmap, ap-arcs')].map((h) => h.updateComplete));
    const t1 = performance.now();
    const frameStart = await nextFrame();
    await new Promise((r) => setTimeout(r, 0));
    const t2 = performance.now();
    if (marks) performance.mark(`edit-${k}-painted`);
    out.push({ work: t1 - t0 + (t2 - frameStart), frame: t2 - t0 });
  }
  return out;
}

/** Opens the playground at `hash` and waits until it has settled: every view drawn, the ones
 *  off screen included (they draw in idle time after the first screen), so that what is timed
 *  next is the edit, not the rest of the page's load. */
export async function openSettled(browser, base, hash) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${base}#${hash}`);
  await page.waitForFunction(() => {
    const views = [...(document.querySelector('attention-playground')?.shadowRoot?.querySelectorAll('ap-heatmap') ?? [])];
    return views.some((v) => v.getAttribute('key') === 'weights') && views.every((v) => !v.deferred && v.hasUpdated && !v.isUpdatePending);
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  return page;
}
