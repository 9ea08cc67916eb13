export { computeLayout, type TableLayout } from './games/one-card/layout.ts';
export { type Rect } from './table-kit/rect.ts';
export { deriveControls, explainLegal } from './games/one-card/controls.ts';
export { GatewayClient } from './net/gateway.ts';
