import {valueToEstree} from 'estree-util-value-to-estree';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';

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
    {
      type: 'mdxJsxAttribute',
      name: 'data',
      value: {
        type: 'mdxJsxAttributeValueExpression',
        value: JSON.stringify(data),
        data: {
          estree: {
            type: 'Program',
            sourceType: 'module',
            body: [{type: 'ExpressionStatement', expression: valueToEstree(data)}],
          },
        },
      },
    },
  ];
}
