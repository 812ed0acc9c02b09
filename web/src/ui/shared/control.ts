// One control for one row of a settings table (state/settings.ts, state/training.ts): a select,
// a checkbox or a text field (with a slider beside it when the row gives one), its label, the
// row's help (shown while the control is hovered or focused, and read as its description) and
// the message beside it when its value is refused.
import { html, nothing, type TemplateResult } from 'lit';
import type { SettingDef } from '../../state/settings.js';

export interface ControlOptions {
  value: string | number | boolean;
  set: (text: string) => void;
  message?: string;
  disabled?: boolean;
  hint?: string;
  extra?: TemplateResult;  // beside the input (the seed's "new random")
  auto?: number;           // where the slider sits while the value is empty ("auto")
  names?: Record<string, string>;  // a select's option shown by another name than its value
}

export function settingControl(def: SettingDef, o: ControlOptions): TemplateResult {
  const id = `c-${def.key}`;
  const help = `h-${def.key}`;
  // Typing or choosing marks the control (data-typed, outside Lit's bindings so a re-render
  // keeps it): its help then steps aside from the views that answer, until focus leaves it.
  const typed = (e: Event) => {
    const input = e.target as HTMLInputElement;
    input.closest('.control')?.setAttribute('data-typed', '');
    return input;
  };
  const read = (e: Event) => typed(e).value;
  const left = (e: FocusEvent) => {
    const control = e.currentTarget as HTMLElement;
    if (!control.contains(e.relatedTarget as Node | null)) control.removeAttribute('data-typed');
  };
  let input: TemplateResult;
  switch (def.kind) {
    case 'select':
      input = html`<select id=${id} aria-describedby=${help} ?disabled=${Boolean(o.disabled)} @change=${(e: Event) => o.set(read(e))}>
        ${def.options!.map((v) => html`<option value=${v} ?selected=${v === o.value}>${o.names?.[v] ?? v.replace('_', ' ')}</option>`)}</select>`;
      break;
    case 'bool':
      input = html`<input id=${id} type="checkbox" aria-describedby=${help} ?disabled=${Boolean(o.disabled)} .checked=${Boolean(o.value)} @change=${(e: Event) => o.set(String(typed(e).checked))}>`;
      break;
    case 'text':
      input = html`<input id=${id} type="text" aria-describedby=${help} ?disabled=${Boolean(o.disabled)} .value=${String(o.value)} spellcheck="false" autocomplete="off" @input=${(e: Event) => o.set(read(e))}>`;
      break;
    default:
      input = html`<input id=${id} type="text" aria-describedby=${help} inputmode=${def.kind === 'int' ? 'numeric' : 'decimal'} .value=${String(o.value)}
        placeholder=${def.fallback === '' ? def.empty ?? 'auto' : ''} ?disabled=${Boolean(o.disabled)} @input=${(e: Event) => o.set(read(e))}>`;
  }
  // The slider and the field show one value; either sets it (the field takes what the slider's
  // span leaves out, and empty for "auto").
  const s = def.slider;
  const at = o.value === '' ? o.auto : Number(o.value);
  const slider = s ? html`<input type="range" min=${s.min} max=${s.max} step=${s.step} .value=${String(at ?? s.min)}
    aria-label=${def.label} aria-describedby=${help} ?disabled=${Boolean(o.disabled)} @input=${(e: Event) => o.set(read(e))}>` : nothing;
  return html`<div class="control ${def.kind} ${s ? 'slider' : ''} ${o.message ? 'bad' : ''}" data-key=${def.key} @focusout=${left}>
    <label for=${id}>${def.label}</label>
    <div class="input">${slider}${input}${o.extra ?? nothing}</div>
    <div class="help" id=${help} role="tooltip">${def.help}</div>
    ${o.hint ? html`<div class="hint">${o.hint}</div>` : nothing}
    ${o.message ? html`<div class="message" role="alert" aria-live="polite">${o.message}</div>` : nothing}
  </div>`;
}

/** The message for a value the table's parser refused. */
export function refusal(def: SettingDef): string {
  return def.kind === 'int' ? `${def.label} must be a whole number from ${def.min} to ${def.max}.`
    : def.kind === 'number' ? `${def.label} must be a number.` : `${def.label}: not a valid choice.`;
}
