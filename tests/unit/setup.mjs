/**
 * Test setup: lets components that import stylesheets load under Node.
 *
 * Loaded with `node --import tsx --import ./tests/unit/setup.mjs --test …`.
 * Importing any `*.css` file (CSS modules included) yields a stub object whose
 * string properties return their own name, so `styles.badge === 'badge'` and
 * tests can assert on class names. Symbol keys, `then` and `__esModule` give
 * undefined so the stub is not mistaken for a promise or an ES-module namespace.
 *
 * Two hooks are installed because tsx compiles `.ts`/`.tsx` files to CommonJS
 * in this package (package.json has no `"type": "module"`), so their imports go
 * through `require`, while ES modules (`.mjs`, `.mts`) go through the loader
 * hook registered with `node:module` `register`.
 *
 * Input: none. Output: side effects only (hooks installed). Errors: none.
 */
import Module, {register} from 'node:module';

/**
 * @returns {object} a stub whose string properties return the property name
 * (symbols, `then` and `__esModule` give undefined). Self-contained, because
 * its source text is also sent to the loader thread below.
 */
function createCssModuleStub() {
  return new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property !== 'string' || property === 'then' || property === '__esModule') {
          return undefined;
        }
        return property;
      },
    },
  );
}

// ES-module hook: `load` answers every URL ending in .css (query and hash
// ignored) with a module whose default export is the stub; all other URLs go
// to the next loader. Registered from a data: URL to keep the setup in one file.
const esmHooks = `
const createCssModuleStub = ${createCssModuleStub.toString()};
const source = 'export default (' + createCssModuleStub.toString() + ')();';
export async function load(url, context, nextLoad) {
    if (!url.split(/[?#]/, 1)[0].endsWith('.css')) return nextLoad(url, context);
    return {format: 'module', shortCircuit: true, source};
}
`;
register(`data:text/javascript,${encodeURIComponent(esmHooks)}`);

// CommonJS hook: `require('./x.module.css')` returns the same stub.
Module._extensions['.css'] = (module) => {
  module.exports = createCssModuleStub();
};
