import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import * as runtime from 'react/jsx-runtime';

/** @mdx-js/mdx is ESM-only; this package's tests run as CommonJS, so it is loaded with import(). */
const evaluate: typeof import('@mdx-js/mdx').evaluate = async (...args) => (await import('@mdx-js/mdx')).evaluate(...args);
import {renderToStaticMarkup} from 'react-dom/server';

import BrowserSupport from '../../src/components/BrowserSupport/index.tsx';
import remarkBrowserSupport, {type BrowserSupportData} from '../../src/remark/browser-support.ts';

const data: BrowserSupportData = {
  feature: 'webusb',
  title: 'WebUSB',
  bcdPaths: ['api.USB'],
  mdnUrl: 'https://developer.mozilla.org/docs/Web/API/USB',
  specUrl: 'https://usb.spec.whatwg.org/#usb',
  bcdVersion: '8.1.9',
  browsers: [
    {id: 'chrome', name: 'Chrome', version: '61'},
    {id: 'firefox', name: 'Firefox', version: false},
    {id: 'deno', name: 'Deno', version: '1.38', flagsOnly: true, notes: ['Needs the runtime flag --unstable-net']},
    {id: 'nodejs', name: 'Node.js', version: '16.5.0', partial: true},
  ],
};

describe('<BrowserSupport>', () => {
  const html = renderToStaticMarkup(<BrowserSupport feature="webusb" data={data} />);

  test('renders a captioned table with Browser and Since column headers', () => {
    assert.match(html, /<table class="table"><caption class="caption">Browser support for WebUSB<\/caption>/);
    assert.match(html, /<thead><tr><th scope="col">Browser<\/th><th scope="col">Since<\/th><\/tr><\/thead>/);
  });

  test('one row per browser, the name as row header', () => {
    const names = [...html.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((match) => match[1]);
    assert.deepEqual(names, ['Chrome', 'Firefox', 'Deno', 'Node.js']);
    assert.match(html, /<th scope="row">Chrome<\/th><td><span class="version">61<\/span><\/td>/);
  });

  test('"No" for unsupported, "Flag only" and "Partial" marks, notes listed', () => {
    assert.match(html, /<th scope="row">Firefox<\/th><td><span class="unsupported">No<\/span><\/td>/);
    assert.match(
      html,
      /<th scope="row">Deno<\/th><td><span class="version">1\.38<\/span><span class="mark">Flag only<\/span><ul class="notes"><li>Needs the runtime flag --unstable-net<\/li><\/ul><\/td>/,
    );
    assert.match(html, /<th scope="row">Node\.js<\/th><td><span class="version">16\.5\.0<\/span><span class="mark">Partial<\/span><\/td>/);
  });

  test('footer links to MDN and the spec in a new tab and names the BCD version', () => {
    const newTab = 'target="_blank" rel="noopener noreferrer"';
    assert.ok(html.includes(`<a href="https://developer.mozilla.org/docs/Web/API/USB" ${newTab}>WebUSB on MDN</a>`));
    assert.ok(html.includes(`<a href="https://usb.spec.whatwg.org/#usb" ${newTab}>Specification</a>`));
    assert.match(html, /Data: @mdn\/browser-compat-data 8\.1\.9<\/p>/);
  });

  test('no spec link when the data has no spec URL', () => {
    const {specUrl: _omitted, ...withoutSpec} = data;
    assert.doesNotMatch(renderToStaticMarkup(<BrowserSupport data={withoutSpec} />), /Specification/);
  });

  test('throws, pointing at the remark plugin, when data is missing', () => {
    assert.throws(
      () => renderToStaticMarkup(<BrowserSupport feature="webusb" />),
      /<BrowserSupport feature="webusb"> has no `data` prop: register the remark plugin src\/remark\/browser-support\.ts/,
    );
  });
});

describe('<BrowserSupport> through MDX with the remark plugin', () => {
  test('the compiled page passes the BCD data to the component', async () => {
    const {default: Content} = await evaluate('## Support\n\n<BrowserSupport feature="webusb" />\n', {
      ...runtime,
      remarkPlugins: [remarkBrowserSupport],
    });
    const html = renderToStaticMarkup(<Content components={{BrowserSupport}} />);
    assert.match(html, /Browser support for WebUSB/);
    assert.match(html, /<th scope="row">Chrome<\/th><td><span class="version">61<\/span><\/td>/);
    assert.match(html, /<th scope="row">Firefox<\/th><td><span class="unsupported">No<\/span><\/td>/);
    assert.match(html, /Data: @mdn\/browser-compat-data \d+\.\d+\.\d+/);
  });

  test('without the plugin the page fails to render', async () => {
    const {default: Content} = await evaluate('<BrowserSupport feature="webusb" />\n', runtime);
    assert.throws(() => renderToStaticMarkup(<Content components={{BrowserSupport}} />), /has no `data` prop/);
  });
});
