// React 19 with the elements, as the README's React line writes them: the tag declared once with
// the element types of web/src/ui/element.d.ts (through the package's "./element" export), then
// used like any tag. tests/hosts/frameworks.test.mjs type-checks this file with tsc.
import 'attention-playground/element';
import type { AttentionCompareElement, AttentionPlaygroundElement, AttentionTrainerElement } from 'attention-playground/element';
import { useRef, type DetailedHTMLProps, type HTMLAttributes } from 'react';

type Tag<E, Attributes> = DetailedHTMLProps<HTMLAttributes<E>, E> & Attributes;
type Look = { theme?: 'auto' | 'light' | 'dark' };
// A few of the settings; attributes with a dash (d-model, weight-init ...) need no declaration.
type Settings = Look & { sentence?: string; seed?: number; heads?: number; mask?: string; preset?: string };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-playground': Tag<AttentionPlaygroundElement, Settings & Partial<Pick<AttentionPlaygroundElement, 'view' | 'controls' | 'compact'>>>;
      'attention-compare': Tag<AttentionCompareElement, Settings & { compare?: string }>;
      'attention-trainer': Tag<AttentionTrainerElement, Look & { task?: string; seed?: number; speed?: string }>;
    }
  }
}

export function Lesson({ onHeads }: { onHeads: (heads: number | undefined) => void }) {
  const playground = useRef<AttentionPlaygroundElement>(null);
  return (
    <>
      <attention-playground ref={playground} sentence="The FBI is chasing the thief" mask="causal" heads={2} d-model={8}
        compact view="weights" onClick={() => onHeads(playground.current?.spec.heads)} />
      <attention-compare compare="mask" theme="dark" />
      <attention-trainer task="reverse" seed={7} ref={(el) => { void el?.snapshot?.step; }} />
    </>
  );
}

// The element's types are really checked: these are errors.
// @ts-expect-error theme is auto, light or dark
export const badTheme = <attention-playground theme="blue" />;
// @ts-expect-error compact is a boolean property
export const badCompact = <attention-playground compact="yes" />;
export function badRef() {
  const trainer = useRef<AttentionTrainerElement>(null);
  // @ts-expect-error a trainer's ref is not a playground's
  return <attention-playground ref={trainer} />;
}
export const spec = (el: AttentionPlaygroundElement) => { el.spec = { ...el.spec, heads: 2 }; return el.spec.d_model; };
// @ts-expect-error the trace on screen is read-only
export const writeTrace = (el: AttentionPlaygroundElement) => { el.trace = null; };
// @ts-expect-error heads is a number in a spec
export const badSpec = (el: AttentionPlaygroundElement) => { el.spec = { heads: '2' }; };
