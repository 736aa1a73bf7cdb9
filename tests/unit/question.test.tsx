import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {Children, isValidElement, type ReactElement, type ReactNode} from 'react';
import * as runtime from 'react/jsx-runtime';

/** @mdx-js/mdx is ESM-only; this package's tests run as CommonJS, so it is loaded with import(). */
const evaluate: typeof import('@mdx-js/mdx').evaluate = async (...args) => (await import('@mdx-js/mdx')).evaluate(...args);
import {renderToStaticMarkup} from 'react-dom/server';

import Question, {
  Answer,
  collectAnswers,
  Question as NamedQuestion,
  questionReducer,
  QuestionView,
} from '../../src/components/Question/index.tsx';

function transportQuestion(): ReactElement {
  return (
    <Question title="Where does your code run?">
      <Answer label="In a web browser">
        <p>Use WebUSB.</p>
      </Answer>
      <Answer label="In Node.js">
        <p>Use the ADB server.</p>
      </Answer>
    </Question>
  );
}

/** Finds host elements of the given tag in a React element tree (no components rendered). */
function findElements(node: ReactNode, tag: string): ReactElement<{onClick?: () => void; children?: ReactNode}>[] {
  const found: ReactElement<{onClick?: () => void; children?: ReactNode}>[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement<{children?: ReactNode}>(child)) {
      return;
    }
    if (child.type === tag) {
      found.push(child);
    }
    found.push(...findElements(child.props.children, tag));
  });
  return found;
}

/** The markup outside `<noscript>`: what a reader with JavaScript sees. */
function visible(markup: string): string {
  return markup.replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
}

describe('<Question> server render', () => {
  const markup = renderToStaticMarkup(transportQuestion());
  const html = visible(markup);

  test('shows the title and labels the group with it', () => {
    const titleId = /<p class="title" id="([^"]+)">Where does your code run\?<\/p>/.exec(html)?.[1];
    assert.ok(titleId, html);
    assert.match(html, new RegExp(`<div class="question" role="group" aria-labelledby="${titleId}">`));
  });

  test('renders one unpressed button per answer, in order', () => {
    const buttons = [
      ...html.matchAll(/<button type="button" class="option" aria-pressed="false" aria-controls="[^"]+">([^<]*)<\/button>/g),
    ];
    assert.deepEqual(
      buttons.map((match) => match[1]),
      ['In a web browser', 'In Node.js'],
    );
    assert.doesNotMatch(html, /aria-pressed="true"/);
  });

  test('shows no answer content and no "Start over" before a choice', () => {
    assert.doesNotMatch(html, /Use WebUSB/);
    assert.doesNotMatch(html, /Use the ADB server/);
    assert.doesNotMatch(html, /Start over/);
  });

  test('prints every answer inside <noscript>, labels in bold, for readers and tools without JavaScript', () => {
    const noscript = /<noscript>([\s\S]*)<\/noscript>/.exec(markup)?.[1];
    assert.equal(
      noscript,
      '<div><p><strong>Where does your code run?</strong></p><ul>' +
        '<li><p><strong>In a web browser</strong></p><p>Use WebUSB.</p></li>' +
        '<li><p><strong>In Node.js</strong></p><p>Use the ADB server.</p></li></ul></div>',
    );
  });

  test('default and named exports are the same component', () => {
    assert.equal(Question, NamedQuestion);
  });
});

describe('<Question> in MDX', () => {
  test('accepts MDX output: flow answers, one-line answers wrapped in paragraphs, nested questions', async () => {
    const source = [
      '<Question title="Where does your code run?">',
      '  <Answer label="In a web browser">',
      '    Use **WebUSB**.',
      '',
      '    <Question title="Which browser?">',
      '      <Answer label="Chrome">Fine.</Answer>',
      '    </Question>',
      '  </Answer>',
      '  <Answer label="In Node.js">Use the ADB server.</Answer>',
      '</Question>',
    ].join('\n');
    const {default: Content} = await evaluate(source, runtime);
    const markup = renderToStaticMarkup(<Content components={{Question, Answer}} />);
    const html = visible(markup);
    const labels = [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]);
    assert.deepEqual(labels, ['In a web browser', 'In Node.js']);
    assert.doesNotMatch(html, /WebUSB|Which browser|ADB server/);
    // One <noscript> only (a nested one would end the outer early), holding the nested question as a list.
    assert.equal(markup.match(/<noscript>/g)?.length, 1);
    assert.match(markup, /<strong>Which browser\?<\/strong><\/p><ul><li><p><strong>Chrome<\/strong><\/p>Fine\.<\/li>/);
  });
});

describe('collectAnswers', () => {
  test('ignores blank text that MDX may insert', () => {
    const answers = collectAnswers('Q', ['\n  ', <Answer key="a" label="A" />, '', <Answer key="b" label="B" />, '\n']);
    assert.deepEqual(
      answers.map((answer) => answer.props.label),
      ['A', 'B'],
    );
  });

  test('unwraps a paragraph that holds only answers (MDX output for a one-line <Answer>)', () => {
    const answers = collectAnswers('Q', [
      <p key="p">
        <Answer label="A">inline</Answer>
      </p>,
      <Answer key="b" label="B" />,
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.props.label),
      ['A', 'B'],
    );
  });

  test('throws for a non-Answer element, naming it and the question', () => {
    assert.throws(
      () =>
        renderToStaticMarkup(
          <Question title="Where?">
            <Answer label="A" />
            <div>stray</div>
          </Question>,
        ),
      /<Question title="Where\?"> accepts only <Answer label="…"> children, got <div>/,
    );
  });

  test('throws for non-blank text, also inside a paragraph', () => {
    assert.throws(() => collectAnswers('Q', ['some text']), /got "some text"/);
    assert.throws(
      () =>
        collectAnswers('Q', [
          <p key="p">
            text <Answer label="A" />
          </p>,
        ]),
      /got "text "/,
    );
  });

  test('throws for an empty label and for no answers', () => {
    assert.throws(() => collectAnswers('Q', [<Answer key="a" label=" " />]), /non-empty label/);
    assert.throws(() => collectAnswers('Q', ['\n']), /needs at least one <Answer/);
  });
});

describe('questionReducer', () => {
  test('choose selects, choosing another switches, choosing again keeps it', () => {
    let state = questionReducer(null, {type: 'choose', index: 1});
    assert.equal(state, 1);
    state = questionReducer(state, {type: 'choose', index: 0});
    assert.equal(state, 0);
    assert.equal(questionReducer(state, {type: 'choose', index: 0}), 0);
  });

  test('reset clears the selection', () => {
    assert.equal(questionReducer(2, {type: 'reset'}), null);
    assert.equal(questionReducer(null, {type: 'reset'}), null);
  });

  test('rejects negative or fractional indexes', () => {
    assert.throws(() => questionReducer(null, {type: 'choose', index: -1}), RangeError);
    assert.throws(() => questionReducer(null, {type: 'choose', index: 0.5}), RangeError);
  });
});

describe('<QuestionView> with a choice', () => {
  const answers = collectAnswers('Where?', [
    <Answer key="a" label="Browser">
      <p>Use WebUSB.</p>
    </Answer>,
    <Answer key="b" label="Node.js">
      <p>Use the ADB server.</p>
    </Answer>,
  ]);
  const noop = (): void => {};

  test('shows only the chosen answer and marks its button pressed', () => {
    const html = renderToStaticMarkup(<QuestionView title="Where?" id="q" answers={answers} chosen={1} onChoose={noop} onReset={noop} />);
    assert.match(html, /aria-pressed="false" aria-controls="q-answer">Browser<\/button>/);
    assert.match(html, /aria-pressed="true" aria-controls="q-answer">Node\.js<\/button>/);
    assert.match(html, /<div class="answer" id="q-answer"><div class="answerContent"><p>Use the ADB server\.<\/p><\/div>/);
    assert.doesNotMatch(html, /Use WebUSB/);
    assert.match(html, /<button type="button" class="reset">Start over<\/button>/);
  });

  test('button clicks report the answer index, and "Start over" calls onReset', () => {
    const chosen: number[] = [];
    let resets = 0;
    const tree = QuestionView({
      title: 'Where?',
      id: 'q',
      answers,
      chosen: 0,
      onChoose: (index) => chosen.push(index),
      onReset: () => {
        resets += 1;
      },
    });
    const buttons = findElements(tree, 'button');
    assert.equal(buttons.length, 3);
    buttons[1].props.onClick?.();
    buttons[0].props.onClick?.();
    assert.deepEqual(chosen, [1, 0]);
    assert.equal(buttons[2].props.children, 'Start over');
    buttons[2].props.onClick?.();
    assert.equal(resets, 1);
  });
});

describe('<Answer>', () => {
  test('renders its children without a wrapper', () => {
    assert.equal(
      renderToStaticMarkup(
        <Answer label="x">
          <em>hi</em>
        </Answer>,
      ),
      '<em>hi</em>',
    );
  });
});
