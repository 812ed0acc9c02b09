// The core in a Web Worker (started by background.js). The first message brings the module
// the page already compiled, so the worker fetches nothing; then each spec gets its packed
// trace back, the numbers' buffer transferred rather than copied.
import createAttentionCore from './wasm/attention-core.mjs';
import { wrap } from './wrap.js';

let core = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    core = createAttentionCore({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(data.module, imports).then((instance) => done(instance, data.module));
        return {};
      },
    }).then(wrap);
    return;
  }
  try {
    const { skeleton, numbers } = (await core).runPacked(data.spec);
    self.postMessage({ id: data.id, skeleton, numbers }, [numbers.buffer]);
  } catch (e) {
    self.postMessage({ id: data.id, failed: String(e?.message ?? e) });  // the page computes it instead
  }
};
