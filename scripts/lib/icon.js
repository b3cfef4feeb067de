// The Marketplace icon: media/berth.svg (a currentColor line drawing for the activity bar) drawn white on a
// coloured tile, rendered to a 128×128 PNG. resvg's WebAssembly build ships inside its npm package, so the build
// downloads nothing at run time and needs no native binary.
const { readFile, writeFile, mkdir } = require('node:fs/promises');
const path = require('node:path');

const SIZE = 128;
/** The tile's colour; package.json's galleryBanner uses the same one. */
const TILE = '#1d4e89';

/** The activity-bar drawing placed on a rounded tile, stroked white. */
function tileSvg(drawing) {
  const inner = drawing
    .replace(/<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 24 24">
  <rect width="24" height="24" rx="4.5" fill="${TILE}"/>
  <g transform="translate(2.4 2.4) scale(0.8)" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">${inner}</g>
</svg>`;
}

async function renderIcon(rootDir, outFile) {
  const { Resvg, initWasm } = require('@resvg/resvg-wasm');
  await initWasm(readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm'))).catch((error) => {
    // initWasm may be called once per process; a second build in the same process (watch mode) reuses it.
    if (!String(error).includes('Already initialized')) throw error;
  });
  const drawing = await readFile(path.join(rootDir, 'media', 'berth.svg'), 'utf8');
  const png = new Resvg(tileSvg(drawing), { fitTo: { mode: 'width', value: SIZE } }).render().asPng();
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, png);
}

module.exports = { renderIcon, ICON_SIZE: SIZE, TILE_COLOUR: TILE };
