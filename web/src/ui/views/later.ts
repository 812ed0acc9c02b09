// The views a first heatmap does not need, in one module, so that they arrive as one file
// (ui/pages/later-views.ts says when): importing it defines the elements of a cell's derivation,
// follow one token, the steppers and the trained model's cards, and gives the views of current
// models' attention (cross-attention's also defines its arcs).
import './derivation.js';
import './flow.js';
import './decode-stepper.js';
import './online-stepper.js';
import './heads-overview.js';
import './next-token.js';

export { ropeAngles, ropePairs } from './rope-view.js';
export { alibiBias, alibiSlopes } from './alibi-view.js';
export { gqaCosts, gqaDiagram } from './gqa-view.js';
export { crossNote } from './cross-view.js';
