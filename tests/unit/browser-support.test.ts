import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import bcd from '@mdn/browser-compat-data' with {type: 'json'};
import type {Program} from 'estree';
import type {Root} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {VFile} from 'vfile';

import remarkBrowserSupport, {
  BROWSER_SUPPORT_FEATURES,
  browserSupportData,
  supportFromStatement,
} from '../../src/remark/browser-support.ts';

function row(feature: string, id: string) {
  const found = browserSupportData(feature).browsers.find((browser) => browser.id === id);
  assert.ok(found, `no ${id} row for ${feature}`);
  return found;
}

describe('browserSupportData', () => {
  test('webusb: Chrome 61, Edge 79, Firefox and Safari unsupported, no Node.js row', () => {
    const data = browserSupportData('webusb');
    assert.equal(data.feature, 'webusb');
    assert.equal(data.title, 'WebUSB');
    assert.deepEqual(data.bcdPaths, ['api.USB']);
    assert.equal(data.mdnUrl, 'https://developer.mozilla.org/docs/Web/API/USB');
    assert.equal(data.specUrl, 'https://usb.spec.whatwg.org/#usb');
    assert.equal(data.bcdVersion, bcd.__meta.version);
    assert.deepEqual(
      data.browsers.map(({id, version}) => [id, version]),
      [
        ['chrome', '61'],
        ['edge', '79'],
        ['firefox', false],
        ['safari', false],
        ['chrome_android', '61'],
        ['safari_ios', false],
        ['opera', '48'],
      ],
    );
    assert.equal(row('webusb', 'chrome').name, 'Chrome');
    assert.equal(row('webusb', 'safari_ios').name, 'Safari on iOS');
  });

  test('the object is plain JSON (it is serialised into the page)', () => {
    for (const feature of BROWSER_SUPPORT_FEATURES) {
      const data = browserSupportData(feature);
      assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
    }
  });

  test('rows follow the table order and only list known browsers', () => {
    const order = ['chrome', 'edge', 'firefox', 'safari', 'chrome_android', 'safari_ios', 'opera', 'nodejs', 'deno'];
    for (const feature of BROWSER_SUPPORT_FEATURES) {
      const ids = browserSupportData(feature).browsers.map((browser) => browser.id);
      assert.deepEqual(
        ids,
        order.filter((id) => ids.includes(id)),
        feature,
      );
      assert.ok(ids.includes('chrome'), feature);
    }
  });

  test('streams needs pipeTo too: Firefox from 100, not 65, with a note naming both', () => {
    const firefox = row('streams', 'firefox');
    assert.equal(firefox.version, '100');
    assert.deepEqual(firefox.notes, ['ReadableStream since 65; ReadableStream.pipeTo since 100']);
    assert.equal(row('streams', 'safari').version, '10.1');
    assert.equal(row('streams', 'safari').notes, undefined);
  });

  test('an array statement uses its first unflagged entry (Node.js ReadableStream global: 18.0.0)', () => {
    assert.equal(row('streams', 'nodejs').version, '18.0.0');
    assert.equal(row('streams', 'nodejs').partial, undefined);
  });

  test('prefixed entries are skipped (Safari SubtleCrypto from 11, not WebKit-prefixed 7)', () => {
    assert.equal(row('webcrypto', 'safari').version, '11');
  });

  test('a flag-only entry is marked and the flag named (Deno WebSocketStream)', () => {
    assert.deepEqual(row('websocketstream', 'deno'), {
      id: 'deno',
      name: 'Deno',
      version: '1.38',
      flagsOnly: true,
      notes: ['Needs the runtime flag --unstable-net'],
    });
  });

  test('throws for an unknown key, listing the known ones', () => {
    assert.throws(
      () => browserSupportData('webbluetooth'),
      new Error('Unknown browser-support feature "webbluetooth". Known features: streams, webcodecs, webcrypto, websocketstream, webusb.'),
    );
    assert.throws(() => browserSupportData('toString'), /Unknown browser-support feature "toString"/);
  });
});

describe('supportFromStatement', () => {
  test('false and null mean unsupported', () => {
    assert.deepEqual(supportFromStatement({version_added: false}), {version: false});
    assert.deepEqual(supportFromStatement({version_added: null as unknown as false}), {version: false});
  });

  test('"preview" means not yet', () => {
    assert.deepEqual(supportFromStatement({version_added: 'preview'}), {
      version: false,
      notes: ['Only in preview builds'],
    });
  });

  test('ranged versions are kept as written', () => {
    assert.deepEqual(supportFromStatement({version_added: '≤79'}), {version: '≤79'});
  });

  test('a removed feature is unsupported', () => {
    assert.deepEqual(supportFromStatement({version_added: '10', version_removed: '20'}), {
      version: false,
      notes: ['Removed in version 20'],
    });
  });

  test('partial implementations are marked and HTML notes become plain text', () => {
    assert.deepEqual(
      supportFromStatement({
        version_added: '16.5.0',
        partial_implementation: true,
        notes: 'Available in the <code>stream/web</code> module &amp; more.',
      }),
      {version: '16.5.0', partial: true, notes: ['Available in the stream/web module & more.']},
    );
  });

  test('the first entry without flags, prefix or alternative name wins', () => {
    assert.deepEqual(
      supportFromStatement([
        {version_added: '90', flags: [{type: 'preference', name: 'dom.enabled', value_to_set: 'true'}]},
        {version_added: '80', prefix: 'moz'},
        {version_added: '100'},
      ]),
      {version: '100'},
    );
  });

  test('only flagged entries give flagsOnly with the preference named', () => {
    assert.deepEqual(
      supportFromStatement([{version_added: '90', flags: [{type: 'preference', name: 'dom.enabled', value_to_set: 'true'}]}]),
      {version: '90', flagsOnly: true, notes: ['Needs the preference dom.enabled set to true']},
    );
  });

  test('only prefixed or renamed entries mean unsupported', () => {
    assert.deepEqual(supportFromStatement([{version_added: '7', prefix: 'WebKit'}]), {
      version: false,
      notes: ['Only with a vendor prefix or under another name'],
    });
  });
});

type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

function runPlugin(source: string, path = 'docs/guide.mdx'): Root {
  const processor = unified().use(remarkParse).use(remarkMdx).use(remarkBrowserSupport);
  const file = new VFile({path, value: source});
  return processor.runSync(processor.parse(file), file);
}

function elements(tree: Root, name: string): JsxElement[] {
  const found: JsxElement[] = [];
  visit(tree, (node) => {
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === name) {
      found.push(node);
    }
  });
  return found;
}

function dataAttributes(element: JsxElement): MdxJsxAttribute[] {
  return element.attributes.filter(
    (attribute): attribute is MdxJsxAttribute => attribute.type === 'mdxJsxAttribute' && attribute.name === 'data',
  );
}

describe('remarkBrowserSupport', () => {
  test('adds a data expression to flow and text elements', () => {
    const tree = runPlugin('# WebUSB\n\n<BrowserSupport feature="webusb" />\n\nInline: <BrowserSupport feature="streams" /> here.\n');
    const [flow, text] = elements(tree, 'BrowserSupport');
    assert.equal(flow.type, 'mdxJsxFlowElement');
    assert.equal(text.type, 'mdxJsxTextElement');

    for (const [element, feature] of [
      [flow, 'webusb'],
      [text, 'streams'],
    ] as const) {
      const [data] = dataAttributes(element);
      assert.ok(data.value !== null && typeof data.value === 'object');
      assert.equal(data.value.type, 'mdxJsxAttributeValueExpression');
      assert.deepEqual(JSON.parse(data.value.value), browserSupportData(feature));
      const program = data.value.data?.estree as Program;
      assert.equal(program.type, 'Program');
      assert.equal(program.body.length, 1);
      const statement = program.body[0];
      assert.equal(statement.type, 'ExpressionStatement');
      assert.equal(statement.expression.type, 'ObjectExpression');
    }
  });

  test('the estree holds the data: webusb says Chrome 61 and Firefox false', () => {
    const [element] = elements(runPlugin('<BrowserSupport feature="webusb" />\n'), 'BrowserSupport');
    const value = dataAttributes(element)[0].value;
    assert.ok(value !== null && typeof value === 'object');
    const json = JSON.stringify(value.data?.estree);
    assert.match(json, /"key":\{"type":"Literal","value":"version"\},"value":\{"type":"Literal","value":"61"\}/);
    assert.deepEqual(JSON.parse(value.value).browsers.find((browser: {id: string}) => browser.id === 'firefox').version, false);
  });

  test('replaces an existing data attribute and keeps the others', () => {
    const [element] = elements(runPlugin('<BrowserSupport feature="webusb" data={{}} className="x" />\n'), 'BrowserSupport');
    assert.equal(dataAttributes(element).length, 1);
    assert.ok(element.attributes.some((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'className'));
    assert.equal(JSON.parse((dataAttributes(element)[0].value as {value: string}).value).feature, 'webusb');
  });

  test('leaves other elements alone', () => {
    const [element] = elements(runPlugin('<Other feature="webusb" />\n'), 'Other');
    assert.equal(dataAttributes(element).length, 0);
  });

  test('an unknown feature fails with the file position and the known keys', () => {
    assert.throws(() => runPlugin('# Title\n\nText\n\n<BrowserSupport feature="webusbb" />\n', 'docs/transports.mdx'), {
      message:
        'docs/transports.mdx:5:1: Unknown browser-support feature "webusbb". Known features: streams, webcodecs, webcrypto, websocketstream, webusb.',
    });
  });

  test('a missing or non-string feature attribute fails', () => {
    assert.throws(() => runPlugin('<BrowserSupport />\n'), /docs\/guide\.mdx:1:1: <BrowserSupport> needs a string feature attribute/);
    assert.throws(() => runPlugin('<BrowserSupport feature={"webusb"} />\n'), /needs a string feature attribute/);
  });
});
