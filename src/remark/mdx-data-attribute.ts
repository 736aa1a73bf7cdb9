import {valueToEstree} from 'estree-util-value-to-estree';
import type {MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';

/**
 * Gives an MDX JSX element a `data={…}` attribute holding a value computed at build time, as
 * if the author had written the object literal in the page (any earlier `data` is replaced).
 * The remark plugins that feed components with build-time facts share it.
 *
 * @param node The `<Component …/>` element (flow or text) to change in place.
 * @param data A JSON-serialisable value (objects, arrays, strings, numbers, booleans, null).
 * @throws Error from `valueToEstree` when `data` holds a value it cannot express.
 */
export function setDataAttribute(node: MdxJsxFlowElement | MdxJsxTextElement, data: unknown): void {
  node.attributes = [
    ...node.attributes.filter((attribute) => !(attribute.type === 'mdxJsxAttribute' && attribute.name === 'data')),
    expressionAttribute('data', data),
  ];
}

/**
 * An MDX JSX attribute `name={…}` whose value is computed at build time, as if the author had
 * written the literal in the page.
 *
 * @param name The attribute (prop) name.
 * @param value A JSON-serialisable value.
 * @returns The attribute node, with the estree MDX compiles.
 * @throws Error from `valueToEstree` when `value` holds a value it cannot express.
 */
export function expressionAttribute(name: string, value: unknown): MdxJsxAttribute {
  return {
    type: 'mdxJsxAttribute',
    name,
    value: {
      type: 'mdxJsxAttributeValueExpression',
      value: JSON.stringify(value),
      data: {
        estree: {
          type: 'Program',
          sourceType: 'module',
          body: [{type: 'ExpressionStatement', expression: valueToEstree(value)}],
        },
      },
    },
  };
}
