// Issue 35 item 6: a pasted link to Retry Lab unfurls with a title, a description and a
// picture. The built page's head holds the Open Graph tags; the picture they name is in the
// built site beside the page, a PNG of the size the tags say (1200 × 630, the size the large
// link cards use); the title and description are the page's own.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, checkBuilt } from '../../browser/lib/dist.js';

const meta = (html, attribute, name) => {
  const found = new RegExp(`<meta ${attribute}="${name.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return found ? found[1] : null;
};

test('the page unfurls: Open Graph title, description and a picture that is in the built site at the size the tags say', () => {
  checkBuilt();
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const head = html.slice(0, html.indexOf('</head>'));
  assert.equal(meta(head, 'property', 'og:title'), /<title>([^<]*)<\/title>/.exec(head)[1], 'the title is the page\'s');
  assert.ok(meta(head, 'property', 'og:description').startsWith(meta(head, 'name', 'description').slice(0, -1)), 'the description begins as the page\'s');
  assert.equal(meta(head, 'name', 'twitter:card'), 'summary_large_image');
  const image = meta(head, 'property', 'og:image');
  assert.ok(image && !image.includes('/'), image);
  const png = readFileSync(join(DIST, image));
  // A PNG: its signature, then the IHDR chunk's width and height, big-endian.
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [Number(meta(head, 'property', 'og:image:width')), Number(meta(head, 'property', 'og:image:height'))]);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630]);
  assert.ok(meta(head, 'property', 'og:image:alt').length > 40, 'the picture is described');
});
