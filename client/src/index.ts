export { computeLayout, type TableLayout, type Rect } from './table/layout.ts';
export { deriveControls, explainLegal } from './table/controller.ts';
export { GatewayClient } from './net/gateway.ts';
