// The settings' controls of one playground element, each drawn from its row of the settings table
// (state/settings.ts), with what the core or the element says of it beside it; and the worked
// examples. What a control changes goes back through the element's set().
import { html, nothing, type TemplateResult } from 'lit';
import { SETTINGS, applies, givenWidth, startFrom, toHash, type SettingDef } from '../../state/settings.js';
import { PRESETS } from '../../state/presets.js';
import { MODEL, PUT_AWAY, WEIGHTS_SIZE, isModelState, readsPieces } from '../../state/model-mode.js';
import { autoValue } from '../../state/auto-value.js';
import { settingControl } from '../shared/control.js';
import { WORDS } from './playground-words.js';
import type { AttentionPlayground } from './playground.js';

// The control that shows an error about a spec key that has none of its own.
export const ERROR_HOME = new Map([['tokens', 'sentence'], ['layer_norm', 'residual'], ['d_v', 'd_k'], ['d_a', 'd_k']]);
const FEW_CONTROLS = 3;

function newSeed(el: AttentionPlayground) {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  el.set(SETTINGS.find((s) => s.key === 'seed')!, String(seed));
}

/** `folded`: inside the closed Settings disclosure, where a message would not be seen. */
export function control(el: AttentionPlayground, def: SettingDef, folded = false): TemplateResult | typeof nothing {
  if (!applies(def, el.state)) return nothing;
  const home = el.error && (ERROR_HOME.get(el.error.field) ?? el.error.field) === def.key ? el.error.message : '';
  if (el.modelMode() && def.key !== 'model' && def.key !== 'sentence') {
    // Put away in model mode; a setting a link gave along with the model stands, disabled, with the core's message.
    const message = home || el.refusals[def.key];
    if (!message) return nothing;
    if (home && !folded) el.errorShown = true;
    return settingControl(def, { value: el.state[def.key], set: () => undefined, message, disabled: true,
      hint: 'Put away: it shapes random weights, and the trained model’s are learned.' });
  }
  if (home && !folded) el.errorShown = true;
  if (def.key === 'model') return modelControl(el, def, home);
  const locked = def.key === 'd_model' && givenWidth(el.overrides) !== undefined;
  return settingControl(def, {
    value: el.state[def.key], set: (text) => el.set(def, text), message: el.inputErrors[def.key] || home,
    disabled: locked, hint: locked ? 'set by your matrix' : def.key !== 'sentence' ? ''
      : el.modelMode() ? readsPieces(el.model?.tokens.length) : el.compact ? '' : WORDS.startHere,
    auto: autoValue(def.key, el.shownTrace),
    extra: def.key === 'seed' ? html`<button class="small" @click=${() => newSeed(el)} title="Draw a new random seed">new random</button>` : undefined,
  });
}

/** Random weights or the trained model: while its weights load, said here and above the
 *  views; a failure to load them is said here, with a way to try again. */
function modelControl(el: AttentionPlayground, def: SettingDef, home: string) {
  const model = el.modelMode();
  const loading = model && el.modelStatus === 'loading';
  const failed = model && el.modelStatus === 'failed';
  return settingControl(def, {
    value: el.state[def.key], set: (text) => el.set(def, text), message: (failed ? el.modelError : '') || home,
    hint: !model ? '' : loading ? `Loading the trained model, ${WEIGHTS_SIZE}…` : PUT_AWAY,
    extra: failed ? html`<button class="small" data-action="retry-model" @click=${el.retryModel}>try again</button>` : undefined,
    // a model trained in /learn/'s tab is named by its card, not by the shipped model's name
    names: el.card?.name ? { [MODEL]: el.card.name } : undefined,
  });
}

/** The worked examples: a row of buttons, or on a phone-wide element one labelled list, so
 *  that none is hidden off the right edge of the screen. */
export function presetPicker(el: AttentionPlayground) {
  if (el.narrow) {
    const pick = (e: Event) => {
      const p = PRESETS.find((x) => x.id === (e.target as HTMLSelectElement).value);
      if (p) el.applyPreset(p);
    };
    // The list shows the example on screen (none once a setting is changed), and the trained
    // model, the first of them, is one tap away beside it (until it is on screen).
    const now = toHash(el.state, el.overrides);
    const shown = PRESETS.find((p) => toHash(startFrom(p).state, startFrom(p).overrides) === now)?.id ?? '';
    const first = PRESETS[0];
    return html`<div class="presets picker" part="presets"><label>Worked examples
      <select data-action="preset" @change=${pick}><option value="" ?selected=${!shown}>choose one…</option>
        ${PRESETS.map((p) => html`<option value=${p.id} ?selected=${p.id === shown}>${p.label}</option>`)}</select></label>
      ${isModelState(el.state) ? nothing : html`<button class="small preset" data-preset=${first.id} @click=${() => el.applyPreset(first)}>${first.label}</button>`}</div>`;
  }
  return html`<nav class="presets" part="presets" aria-label="Worked examples">
    ${PRESETS.map((p) => html`<button class="preset" data-preset=${p.id} @click=${() => el.applyPreset(p)}>${p.label}</button>`)}
  </nav>`;
}

/** On a narrow element the results come first: the sentence stays, the rest folds away. */
export function folded(el: AttentionPlayground, shown: SettingDef[]) {
  const rest = shown.filter((d) => d.key !== 'sentence');
  // The few controls an embedder picked (controls="seed,temperature") stay in sight: folding
  // is for the whole table, which would push the results off a phone's screen.
  if (rest.length <= FEW_CONTROLS) return shown.map((d) => control(el, d));
  const toggled = (e: Event) => (el.settingsOpen = (e.target as HTMLDetailsElement).open);
  return [
    ...shown.filter((d) => d.key === 'sentence').map((d) => control(el, d)),
    ...(rest.length ? [html`<details class="settings" ?open=${el.settingsOpen} @toggle=${toggled}>
      <summary>Settings</summary><div class="fold">${rest.map((d) => control(el, d, !el.settingsOpen))}</div></details>`] : []),
  ];
}

/** Whether the element offers this setting's control (its `controls` attribute). */
export function offered(el: AttentionPlayground, def: SettingDef) {
  if (el.controls === 'all' || el.controls === '') return true;
  // The reader switched the model (Open the trained model): the Model control is the way back.
  if (def.key === 'model' && el.state.model !== el.givenModel) return true;
  if (el.controls === 'none') return false;
  return el.controls.split(',').map((k) => k.trim()).includes(def.key);
}
