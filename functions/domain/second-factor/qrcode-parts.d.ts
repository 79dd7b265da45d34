// The two parts of `qrcode` the enrolment uses: its package entry also loads the PNG and canvas
// renderers (and pngjs), which the second-factor bundle has no room for.
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
declare module 'qrcode/lib/renderer/svg-tag.js' {
  import type { QRCode, QRCodeRenderersOptions } from 'qrcode';
  export function render(qrData: QRCode, options?: QRCodeRenderersOptions): string;
}
