// The reveal.js deck (examples/slides/, built into dist/slides/ and served by `npm start` at
// /slides/): the arrows move the slides, except while a heatmap's cell (or a field) of an element
// has the focus; the elements fit their slide, scale with reveal's zoom and show the core's
// numbers; the trainer on a slide trains as in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, core, launch, serveDir, weightsShown, weightsOfSpec } from './support.mjs';

const { loadTraining } = await import(join(ROOT, 'dist/attention.js'));
let chromium, server;
before(async () => { chromium = await launch(); server = await serveDir(join(ROOT, 'dist')); });
after(async () => { await chromium?.close(); await server?.close(); });

const slide = (page) => page.evaluate(() => window.deck.getIndices().h);
async function open(page, hash = '') {
  const response = await page.goto(`${server.base}slides/${hash}`);
  assert.equal(response.status(), 200, 'dist/slides/ is built');
  await page.waitForFunction(() => window.deck?.isReady());
}
/** Goes to the slide `id` with the deck's own API, and waits for reveal's end of the transition. */
async function show(page, id) {
  await page.evaluate((id) => new Promise((resolve) => {
    const { deck } = window, h = deck.getIndices(document.getElementById(id)).h;
    if (deck.getIndices().h === h) return resolve();
    deck.on('slidetransitionend', function done() { deck.off('slidetransitionend', done); resolve(); });
    deck.slide(h);
  }), id);
  // reveal.js may report the transition's end while the slide is still sliding in (a transition
  // inside it ends first): wait until the slide stands where the deck draws it.
  await page.waitForFunction((id) => {
    const slides = document.querySelector('.reveal .slides').getBoundingClientRect();
    const r = document.getElementById(id).getBoundingClientRect();
    return Math.abs(r.left - slides.left) < 1 && Math.abs(r.right - slides.right) < 1;
  }, id);
}
/** The innermost focused element, through the shadow roots, as {tag, row, col}. */
const focused = (page) => page.evaluate(() => {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return { tag: el?.tagName, row: el?.dataset?.row, col: el?.dataset?.col };
});

test('the arrows move the slides, but not while a cell or a field of an element has the focus', async () => {
  const page = await chromium.page({ loopback: true });
  await open(page);
  assert.equal(await slide(page), 0);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.getIndices().h === 1);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.deck.getIndices().h === 0);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.getIndices().h === 1);

  // A cell of the weights: the arrows walk the matrix and the slide stays.
  const host = page.locator('#example attention-playground');
  const first = host.locator('ap-heatmap[key="weights"] td[data-row="0"][data-col="0"]');
  await first.click();
  assert.deepEqual(await focused(page), { tag: 'TD', row: '0', col: '0' });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(page), { tag: 'TD', row: '1', col: '2' });
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await focused(page), { tag: 'TD', row: '1', col: '1' });
  assert.equal(await slide(page), 1);

  // A field of the element: typing (a space, the arrows) stays in the field.
  const seed = host.locator('#c-seed');
  await seed.fill('42');
  await seed.press('ArrowLeft');
  await seed.press('Space');
  await seed.press('ArrowRight');
  assert.equal(await slide(page), 1);

  // Focus back on the slide itself: the arrows are the deck's again.
  await page.locator('#example > h3').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.getIndices().h === 2);

  // Why the deck passes keyboardCondition: reveal.js alone moves the slide under a moving cell.
  await show(page, 'example');
  await page.evaluate(() => window.deck.configure({ keyboardCondition: null }));
  await first.click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.getIndices().h === 2);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refused, []);
  await page.context().close();
});

test('the elements fit their slide and scale with it', async () => {
  const sizes = [];
  for (const viewport of [{ width: 1600, height: 1000 }, { width: 800, height: 500 }]) {
    const page = await chromium.page({ loopback: true, viewport });
    const seen = {};
    await open(page);
    for (const [id, tag] of [['example', 'attention-playground'], ['compare', 'attention-compare'], ['trainer', 'attention-trainer']]) {
      await show(page, id);
      const el = page.locator(`#${id} ${tag}`);
      await el.locator('ap-heatmap').first().waitFor();
      // The slide is centred in its height, so it may shift while the element draws (its views
      // draw in idle time): let it settle, then measure (and fail below with what was seen).
      await page.waitForFunction((el) => {
        const box = el.getBoundingClientRect(), slides = document.querySelector('.reveal .slides').getBoundingClientRect();
        const td = el.shadowRoot.querySelector('ap-heatmap')?.shadowRoot.querySelector('td, canvas')?.getBoundingClientRect();
        return box.top >= slides.top - 1 && box.bottom <= slides.bottom + 1 && td?.width > 0;
      }, await el.elementHandle(), { timeout: 15_000 }).catch(() => {});
      seen[id] = await el.evaluate((node) => {
        const box = node.getBoundingClientRect(), section = node.closest('section').getBoundingClientRect();
        const slides = document.querySelector('.reveal .slides').getBoundingClientRect();
        const td = node.shadowRoot.querySelector('ap-heatmap')?.shadowRoot.querySelector('td, canvas')?.getBoundingClientRect();
        return {
          layout: node.offsetWidth,                       // in the slide's own pixels
          share: +(box.width / slides.width).toFixed(3),  // of the scaled slide
          inside: box.left >= slides.left - 1 && box.right <= slides.right + 1 && box.top >= slides.top - 1 && box.bottom <= slides.bottom + 1,
          fills: box.width >= 0.9 * section.width,
          drawn: Boolean(td && td.width > 0 && td.height > 0),
          narrow: node.hasAttribute('narrow'),
          scale: box.width / node.offsetWidth,
        };
      });
    }
    sizes.push(seen);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  const [big, small] = sizes;
  for (const id of Object.keys(big)) {
    for (const seen of [big[id], small[id]]) {
      assert.ok(seen.inside && seen.fills && seen.drawn && !seen.narrow, `${id}: ${JSON.stringify(seen)}`);
    }
    assert.equal(small[id].layout, big[id].layout, `${id} lays out in the slide's pixels`);
    assert.equal(small[id].share, big[id].share, `${id} takes the same share of the slide`);
    assert.ok(small[id].scale < 0.75 * big[id].scale, `${id} is drawn smaller in a smaller window`);
  }
});

test('on the slides: the core\'s numbers, a comparison, and the trainer as in Node', async () => {
  const page = await chromium.page({ loopback: true });
  await open(page);
  await show(page, 'example');
  const host = page.locator('#example attention-playground');
  const { spec, weights } = await weightsOfSpec(host);
  assert.equal(spec.sentence, 'i miss the old kanye');
  assert.deepEqual(await weightsShown(host), weights);
  // clicking a cell opens its derivation, with the numbers on the slide
  await host.locator('ap-heatmap[key="weights"] td[data-row="1"][data-col="2"]').click();
  await host.locator('ap-derivation').first().waitFor();

  await show(page, 'compare');
  const traces = await page.locator('#compare attention-compare').evaluate(async (el) => {
    while (!el.traces) await new Promise((r) => setTimeout(r, 20));
    return el.traces;
  });
  const sentence = { sentence: 'the cat sat on the mat', d_model: 4 };
  assert.deepEqual(traces[0].weights, core.run({ ...sentence, mask: 'none' }).weights);
  assert.deepEqual(traces[1].weights, core.run({ ...sentence, mask: 'causal' }).weights);

  await show(page, 'trainer');
  const trainer = page.locator('#trainer attention-trainer');
  await trainer.locator('button[data-action="step100"]:not([disabled])').click();
  await page.waitForFunction(() => document.querySelector('#trainer attention-trainer').snapshot?.step === 100);
  const training = await loadTraining();
  assert.equal(training.start({ task: 'reverse', seed: 7, heads: 1, d_model: 8 }).error, undefined);
  assert.deepEqual((await trainer.evaluate((el) => el.snapshot)).metrics, training.step(100));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refused, []);
  await page.context().close();
});

/** Every box on the current slide (its own elements and, through the shadow roots, everything an
 *  element draws) that lies outside the slide, or is hidden by an element's own scrolling. */
const outside = (page, id) => page.evaluate((id) => {
  const slide = document.querySelector('.reveal .slides').getBoundingClientRect();
  const section = document.getElementById(id), out = [];
  // Inside the slide, and inside the element that holds it (which scrolls what it cannot show).
  const visit = (root, box) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot, el.getBoundingClientRect());
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      for (const [what, b] of [['the slide', slide], ['its element', box]]) {
        if (b && (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)) {
          out.push(`${el.tagName.toLowerCase()}.${el.className} ${el.textContent.trim().slice(0, 30)}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} outside ${what} ${[b.left, b.top, b.right, b.bottom].map(Math.round)}`);
        }
      }
    }
  };
  visit(section, null);
  return out;
}, id);

test('at 1280 x 720 and 1920 x 1080 every slide fits, and the numbers of a heatmap read from afar', async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const page = await chromium.page({ loopback: true, viewport });
    await open(page);
    const ids = await page.evaluate(() => [...document.querySelectorAll('.reveal .slides > section')].map((s) => s.id));
    assert.deepEqual(ids, ['title', 'example', 'trained', 'induction', 'compare', 'trainer', 'end']);
    for (const id of ids) {
      await show(page, id);
      const element = page.locator(`#${id} :is(attention-playground, attention-compare, attention-trainer)`);
      if (id === 'trained' || id === 'induction') {
        // the trained model's pictures: its heads at a glance, then one layer's weights
        await element.locator(id === 'trained' ? 'ap-heads-overview canvas' : 'ap-arcs svg').first().waitFor({ timeout: 60_000 });
        await page.waitForTimeout(300);
      } else if (await element.count()) {
        await element.locator('ap-heatmap td[data-row]').first().waitFor();
        if (id === 'trainer') {
          await element.locator('button[data-action="step100"]:not([disabled])').click();
          await page.waitForFunction(() => document.querySelector('#trainer attention-trainer').snapshot?.step === 100);
          await element.locator('figure.chart').waitFor();
        }
        await page.waitForTimeout(300);  // views draw in idle time
        // The numbers on screen: their font size after reveal.js scales the slide.
        const sizes = await element.locator('ap-heatmap').evaluateAll((maps) => maps.flatMap((m) =>
          [...m.shadowRoot.querySelectorAll('td[data-row]')].map((td) => parseFloat(getComputedStyle(td).fontSize) * window.deck.getScale())));
        assert.ok(sizes.length > 0);
        assert.ok(Math.min(...sizes) >= 16 * (viewport.width / 1280) - 0.5, `${id} at ${viewport.width}: cells at ${Math.min(...sizes).toFixed(1)} px`);
      }
      assert.deepEqual(await outside(page, id), [], `${id} at ${viewport.width} x ${viewport.height}`);
    }
    // The comparison keeps what answers its question: both sides' weights and what changed.
    const compare = page.locator('#compare attention-compare');
    assert.equal(await compare.locator('.card[data-side] ap-heatmap[key="weights"]').count(), 2);
    assert.match(await compare.locator('.card.diff h2').innerText(), /What changed/);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.refused, []);
    await page.context().close();
  }
});

test('a reload of a link to a slide keeps its element\'s layer and head, after the deck has moved on and back', async () => {
  const page = await chromium.page({ loopback: true });
  // the induction slide's element is the third without an id
  await open(page, '#/induction&playground-3.layer=1&playground-3.head=1');
  const el = page.locator('#induction attention-playground');
  const picked = () => el.evaluate(async (e) => {
    while (!e.model) await new Promise((r) => setTimeout(r, 20));
    return [e.layer, e.focusHead];
  });
  assert.deepEqual(await picked(), [1, 1]);
  await show(page, 'compare');
  await show(page, 'induction');
  await page.waitForFunction(() => location.hash === '#/induction&playground-3.layer=1&playground-3.head=1');
  await page.reload();
  await page.waitForFunction(() => window.deck?.isReady());
  assert.equal(await slide(page), await page.evaluate(() => window.deck.getIndices(document.getElementById('induction')).h));
  assert.deepEqual(await picked(), [1, 1]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on the example slide, Open the trained model leaves a consistent element and a way back', async () => {
  const page = await chromium.page({ loopback: true });
  await open(page);
  await show(page, 'example');
  const el = page.locator('#example attention-playground');
  await el.locator('ap-heatmap td[data-row]').first().waitFor();
  const controls = () => el.evaluate((e) => [...e.shadowRoot.querySelectorAll('.control[data-key]')].map((c) => c.dataset.key));
  assert.deepEqual(await controls(), ['seed', 'temperature']);
  await el.locator('button[data-action="open-model"]').first().click();
  await page.waitForFunction(() => document.querySelector('#example attention-playground').model, null, { timeout: 60_000 });
  assert.ok((await controls()).includes('model'), 'the Model control is there, to go back');
  assert.doesNotMatch(await el.evaluate((e) => e.shadowRoot.textContent), /seed 42/, 'the random example\'s note went with it');
  await el.locator('select#c-model').selectOption('random');
  await page.waitForFunction(() => !document.querySelector('#example attention-playground').model && document.querySelector('#example attention-playground').trace);
  assert.deepEqual((await controls()).filter((k) => k !== 'model'), ['seed', 'temperature']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an element's Share link keeps the deck's slide: the reader lands on the slide, with the element's numbers", async () => {
  const page = await chromium.page({ loopback: true });
  await open(page);
  const el = page.locator('attention-playground').first();
  const id = await el.evaluate((e) => e.closest('section').id);
  await show(page, id);
  const h = await slide(page);
  assert.ok(h > 0);
  await page.waitForFunction((id) => location.hash === `#/${id}`, id);  // reveal.js names the slide in the address
  const route = await page.evaluate(() => location.hash);
  await el.evaluate((e) => e.setAttribute('toolbar', ''));
  await el.locator('#c-seed').fill('7');
  await el.locator('#c-seed').press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.seed === 7);
  await el.locator('button[data-action="share"]').click();
  const link = await el.locator('textarea.share').inputValue();
  assert.ok(link.endsWith(`${route}&playground-1.seed=7`), link);
  const again = await chromium.page({ loopback: true });
  await again.goto(link);
  await again.waitForFunction(() => window.deck?.isReady());
  await again.waitForFunction((want) => window.deck.getIndices().h === want, h);  // the deck opens on the same slide
  await again.waitForFunction(() => document.querySelector('attention-playground').trace);
  assert.equal(await again.locator('attention-playground').first().evaluate((e) => e.spec.seed), 7);
  const host = again.locator('attention-playground').first();
  assert.deepEqual(await weightsShown(host), (await weightsOfSpec(host)).weights);
  await page.context().close();
  await again.context().close();
});
