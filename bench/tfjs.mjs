// The same forward pass in TensorFlow.js 4.22 on its WebAssembly backend (float32 only),
// loaded from node_modules: no network.
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

let ready = null;
export function tfjsReady() {
  if (!ready) {
    setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).pathname);
    ready = tf.setBackend('wasm').then(() => tf.ready()).then(() => tf);
  }
  return ready;
}

export function tfjsForward(tfx, X, Wq, Wk, Wv, Wo, n, d, heads) {
  return tfx.tidy(() => {
    const dk = d / heads;
    const split = (M) => tfx.transpose(tfx.reshape(M, [n, heads, dk]), [1, 0, 2]);  // (h, n, dk)
    const q = split(tfx.matMul(X, Wq)), k = split(tfx.matMul(X, Wk)), v = split(tfx.matMul(X, Wv));
    const w = tfx.softmax(tfx.mul(tfx.matMul(q, k, false, true), 1 / Math.sqrt(dk)));
    const concat = tfx.reshape(tfx.transpose(tfx.matMul(w, v), [1, 0, 2]), [n, d]);
    const out = Wo ? tfx.matMul(concat, Wo) : concat;
    out.dataSync();  // wait for the result
    return out.shape;
  });
}
