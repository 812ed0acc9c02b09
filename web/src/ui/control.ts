// One control for one row of a settings table (state/settings.ts, state/training.ts): a select,
// a checkbox or a text field, its label (with the row's help as a tooltip) and the message
// beside it when its value is refused.
import { html, nothing, type TemplateResult } from 'lit';
import type { SettingDef } from '../state/settings.js';

export interface ControlOptions {
  value: string | number | boolean;
  set: (text: string) => void;
  message?: string;
  disabled?: boolean;
  hint?: string;
  extra?: TemplateResult;  // beside the input (the seed's "new random")
}

export function settingControl(def: SettingDef, o: ControlOptions): TemplateResult {
  const id = `c-${def.key}`;
  const read = (e: Event) => (e.target as HTMLInputElement).value;
  let input: TemplateResult;
  switch (def.kind) {
    case 'select':
      input = html`<select id=${id} @change=${(e: Event) => o.set(read(e))}>
        ${def.options!.map((v) => html`<option value=${v} ?selected=${v === o.value}>${v.replace('_', ' ')}</option>`)}</select>`;
      break;
    case 'bool':
      input = html`<input id=${id} type="checkbox" .checked=${Boolean(o.value)} @change=${(e: Event) => o.set(String((e.target as HTMLInputElement).checked))}>`;
      break;
    case 'text':
      input = html`<input id=${id} type="text" .value=${String(o.value)} spellcheck="false" autocomplete="off" @input=${(e: Event) => o.set(read(e))}>`;
      break;
    default:
      input = html`<input id=${id} type="text" inputmode=${def.kind === 'int' ? 'numeric' : 'decimal'} .value=${String(o.value)}
        placeholder=${def.fallback === '' ? 'auto' : ''} ?disabled=${Boolean(o.disabled)} @input=${(e: Event) => o.set(read(e))}>`;
  }
  return html`<div class="control ${def.kind} ${o.message ? 'bad' : ''}" data-key=${def.key}>
    <label for=${id} title=${def.help}>${def.label}</label>
    <div class="input">${input}${o.extra ?? nothing}</div>
    ${o.hint ? html`<div class="hint">${o.hint}</div>` : nothing}
    ${o.message ? html`<div class="message" role="alert" aria-live="polite">${o.message}</div>` : nothing}
  </div>`;
}

/** The message for a value the table's parser refused. */
export function refusal(def: SettingDef): string {
  return def.kind === 'int' ? `${def.label} must be a whole number from ${def.min} to ${def.max}.`
    : def.kind === 'number' ? `${def.label} must be a number.` : `${def.label}: not a valid choice.`;
}
