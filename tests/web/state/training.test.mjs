// The trainer's settings (web/src/state/training.ts): the "Language model" task beside the core's
// tasks, its own rows (shown only for it, with lmStart's defaults and ranges), and the settings
// each kind of run is started with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { TRAINING, LM_ROWS, LM_FIELD, LANGUAGE_MODEL, isLanguage, shownRows, toLanguage, toTraining, outOfRange } = await importTSTree('web/src/state/training.ts');
const { defaults, fromHash, parseValue, toHash } = await importTSTree('web/src/state/settings.ts');

test('the task menu holds the core tasks and the language model', () => {
  const task = TRAINING.find((d) => d.key === 'task');
  assert.deepEqual(task.options, ['copy', 'earlier', 'sort', 'reverse', LANGUAGE_MODEL]);
});

test("each task shows its own rows; the language model's start from lmStart's defaults", () => {
  const state = defaults(TRAINING);
  assert.equal(isLanguage(state), false);
  assert.ok(!shownRows(state).some((d) => d.key.startsWith('lm_')));
  const lm = { ...state, task: LANGUAGE_MODEL };
  assert.deepEqual(shownRows(lm).map((d) => d.key), ['task', 'lm_seed', 'lm_learning_rate', 'lm_batch_size', 'lm_repeat_share', 'lm_text_repeats', 'lm_sentence_share', 'lm_sentences_from', 'lm_steps', 'lm_decay_steps', 'lm_short_steps']);
  assert.deepEqual(toLanguage(lm), { seed: 1, learning_rate: 0.003, batch_size: 8, repeat_share: 0.75, text_repeats: 0.9, sentence_share: 0.75, sentences_from: 2000, steps: 5000, decay_steps: 1500, short_steps: 2000 });
  assert.equal(toTraining(state).lm_seed, undefined, 'no lm_ key reaches the core trainer');
  // Every field lmStart names has a control.
  for (const row of Object.values(LM_FIELD)) assert.ok(shownRows(lm).some((d) => d.key === row), row);
});

test('a link names the task and the settings that differ from the defaults', () => {
  const r = fromHash('#task=language_model&lm_batch_size=16&lm_repeat_share=0.5', TRAINING);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(toLanguage(r.state), { seed: 1, learning_rate: 0.003, batch_size: 16, repeat_share: 0.5, text_repeats: 0.9, sentence_share: 0.75, sentences_from: 2000, steps: 5000, decay_steps: 1500, short_steps: 2000 });
  assert.equal(toHash(r.state, {}, TRAINING), 'task=language_model&lm_batch_size=16&lm_repeat_share=0.5');
  assert.match(fromHash('#task=language_model&lm_batch_size=65', TRAINING).problems.join(), /lm_batch_size/);
});

test('values out of a row’s range are refused with a message', () => {
  const row = (k) => LM_ROWS.find((d) => d.key === k);
  assert.equal(parseValue(row('lm_batch_size'), '65'), undefined);
  assert.equal(outOfRange(row('lm_learning_rate'), parseValue(row('lm_learning_rate'), '2')), 'Learning rate must be from 0 to 1.');
  assert.equal(outOfRange(row('lm_learning_rate'), 0.01), '');
  assert.equal(outOfRange(row('lm_repeat_share'), -0.1), 'Repeat share must be from 0 to 1.');
  assert.equal(outOfRange(row('lm_repeat_share'), 1), '');
});
