import {
  Children,
  createContext,
  isValidElement,
  useContext,
  useId,
  useReducer,
  useRef,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

import styles from './styles.module.css';

/** Props of {@link Answer}. */
export interface AnswerProps {
  /** Text of the button that picks this answer, e.g. `"In a web browser"`. */
  label: string;
  /** What to show once the answer is picked: Markdown, possibly a nested `<Question>`. */
  children?: ReactNode;
}

/** Props of {@link Question}. */
export interface QuestionProps {
  /** The question, e.g. `"Where does your code run?"`. */
  title: string;
  /** `<Answer>` elements, one per choice, in button order. */
  children?: ReactNode;
}

/** Which answer is shown: its index among the `<Answer>` children, or `null` for none. */
export type QuestionState = number | null;

/** What a reader can do: pick the answer at `index`, or start over. */
export type QuestionAction = {type: 'choose'; index: number} | {type: 'reset'};

/**
 * Reducer for {@link Question}'s selection.
 *
 * Input: the current state (answer index or `null`) and an action.
 * Output: the next state: `choose` selects `index` (choosing the shown answer
 * again keeps it shown), `reset` clears the selection to `null`.
 * Errors: throws a RangeError when `index` is not a non-negative integer.
 * Facts: none.
 */
export function questionReducer(state: QuestionState, action: QuestionAction): QuestionState {
  switch (action.type) {
    case 'choose':
      if (!Number.isInteger(action.index) || action.index < 0) {
        throw new RangeError(`Answer index must be a non-negative integer, got ${action.index}.`);
      }
      return action.index;
    case 'reset':
      return null;
  }
}

/**
 * One choice of a {@link Question}; only meaningful as a direct child of it.
 *
 * Input: `{label, children}`; `Question` reads `label` for the button text.
 * Output: its children, unchanged (no wrapper element).
 * Errors: none.
 * Facts: none; the content comes from the page author.
 */
export function Answer({children}: AnswerProps): ReactNode {
  return <>{children}</>;
}

function isBlank(child: ReactNode): boolean {
  return typeof child === 'string' && child.trim() === '';
}

function describe(child: ReactNode): string {
  if (isValidElement(child)) {
    const {type} = child;
    return typeof type === 'string' ? `<${type}>` : `<${(type as {name?: string}).name || 'component'}>`;
  }
  return JSON.stringify(String(child));
}

/**
 * Collects the `<Answer>` elements among a Question's children.
 *
 * Input: the children of `<Question>`. Blank text is skipped. A `<p>` that
 * contains only `<Answer>` elements is unwrapped: MDX wraps an `<Answer>`
 * written on one line (`<Answer label="x">text</Answer>`) in a paragraph.
 * Output: the `<Answer>` elements, in order.
 * Errors: throws an Error naming the question and the offending child when a
 * child is anything else, when an Answer's `label` is empty, or when there
 * are no answers at all.
 * Facts: none.
 */
export function collectAnswers(title: string, children: ReactNode): ReactElement<AnswerProps>[] {
  const answers: ReactElement<AnswerProps>[] = [];
  const add = (child: ReactNode, insideParagraph: boolean): void => {
    if (isBlank(child)) {
      return;
    }
    if (isValidElement<AnswerProps>(child) && child.type === Answer) {
      if (typeof child.props.label !== 'string' || child.props.label.trim() === '') {
        throw new Error(`<Question title="${title}">: every <Answer> needs a non-empty label.`);
      }
      answers.push(child);
      return;
    }
    if (!insideParagraph && isValidElement<{children?: ReactNode}>(child) && child.type === 'p') {
      Children.toArray(child.props.children).forEach((grandchild) => add(grandchild, true));
      return;
    }
    throw new Error(
      `<Question title="${title}"> accepts only <Answer label="…"> children, got ${describe(child)}. Put any other text inside an <Answer>.`,
    );
  };
  Children.toArray(children).forEach((child) => add(child, false));
  if (answers.length === 0) {
    throw new Error(`<Question title="${title}"> needs at least one <Answer label="…"> child.`);
  }
  return answers;
}

/** Props of {@link QuestionView}: everything {@link Question} decides, passed down. */
export interface QuestionViewProps {
  /** The question text. */
  title: string;
  /** Base for the element ids (unique on the page, e.g. from `useId`). */
  id: string;
  /** The answers, from {@link collectAnswers}. */
  answers: ReactElement<AnswerProps>[];
  /** Index of the chosen answer, or `null`. */
  chosen: QuestionState;
  /** Called with the answer index when its button is clicked. */
  onChoose: (index: number) => void;
  /** Called when "Start over" is clicked. */
  onReset: () => void;
  /** Receives the first answer button, so "Start over" can move focus to it. */
  firstButtonRef?: Ref<HTMLButtonElement>;
}

/**
 * Stateless rendering of a {@link Question} for a given choice.
 *
 * Input: {@link QuestionViewProps}.
 * Output: a `role="group"` labelled by the title (`<p id="{id}-title">`), one
 * `<button type="button" aria-pressed>` per answer, each `aria-controls` the
 * answer region `{id}-answer`; when `chosen` is an index, that answer's
 * content (and only it) plus a "Start over" button fill the region.
 * Errors: none.
 * Facts: none.
 */
export function QuestionView({title, id, answers, chosen, onChoose, onReset, firstButtonRef}: QuestionViewProps): ReactNode {
  const titleId = `${id}-title`;
  const panelId = `${id}-answer`;
  const chosenAnswer = chosen === null ? undefined : answers[chosen];
  return (
    <div className={styles.question} role="group" aria-labelledby={titleId}>
      <p className={styles.title} id={titleId}>
        {title}
      </p>
      <div className={styles.options}>
        {answers.map((answer, index) => (
          <button
            key={index}
            ref={index === 0 ? firstButtonRef : undefined}
            type="button"
            className={styles.option}
            aria-pressed={chosen === index}
            aria-controls={panelId}
            onClick={() => onChoose(index)}
          >
            {answer.props.label}
          </button>
        ))}
      </div>
      <div className={styles.answer} id={panelId}>
        {chosenAnswer !== undefined && (
          <>
            {/* Keyed by index so nested questions start fresh when the answer changes. */}
            <div key={chosen} className={styles.answerContent}>
              {chosenAnswer}
            </div>
            <button type="button" className={styles.reset} onClick={onReset}>
              Start over
            </button>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * Where a {@link Question} renders: at the top of the page, inside an answer shown by an interactive
 * question, or inside the static tree printed for readers and tools without JavaScript.
 */
type QuestionPlace = 'top' | 'interactive' | 'static';
const QuestionPlaceContext = createContext<QuestionPlace>('top');

/**
 * The whole chooser as static markup: the question, then a list with each answer's label in bold
 * followed by its content, nested questions included.
 *
 * Input: the question text and its answers (from {@link collectAnswers}).
 * Output: `<div><p><strong>title</strong></p><ul><li><p><strong>label</strong></p>…</li>…</ul></div>`;
 * nested `<Question>`s inside render the same way.
 * Errors: none. Facts: none.
 */
export function QuestionTree({title, answers}: {title: string; answers: ReactElement<AnswerProps>[]}): ReactNode {
  return (
    <QuestionPlaceContext.Provider value="static">
      <div>
        <p>
          <strong>{title}</strong>
        </p>
        <ul>
          {answers.map((answer, index) => (
            <li key={index}>
              <p>
                <strong>{answer.props.label}</strong>
              </p>
              {answer.props.children}
            </li>
          ))}
        </ul>
      </div>
    </QuestionPlaceContext.Provider>
  );
}

/**
 * Interactive chooser: a question, one button per answer, and the chosen answer.
 *
 * Input: `{title, children}`; children are `<Answer label="…">` elements (see
 * {@link collectAnswers}). Answers may contain further `<Question>`s.
 * Output: {@link QuestionView} driven by {@link questionReducer}: nothing is
 * chosen at first (so the visible server-rendered HTML holds no answer content); clicking
 * an answer button shows that answer, clicking another switches to it, and
 * "Start over" clears the choice and moves focus to the first answer button.
 * A question at the top of the page also prints {@link QuestionTree} inside `<noscript>`: readers
 * without JavaScript see every answer, and the Markdown twin of the page (src/plugins/llms-txt)
 * turns it into nested lists. React renders `<noscript>` children on the server only, so this costs
 * HTML bytes but no hydration work.
 * Errors: throws an Error for children other than `<Answer>` elements, blank
 * labels, or no answers (see {@link collectAnswers}).
 * Facts: none; questions and answers come from the page author.
 */
export function Question({title, children}: QuestionProps): ReactNode {
  const answers = collectAnswers(title, children);
  const [chosen, dispatch] = useReducer(questionReducer, null);
  const id = useId();
  const firstButton = useRef<HTMLButtonElement>(null);
  const place = useContext(QuestionPlaceContext);
  if (place === 'static') {
    return <QuestionTree title={title} answers={answers} />;
  }
  const view = (
    <QuestionView
      title={title}
      id={id}
      answers={answers}
      chosen={chosen}
      onChoose={(index) => dispatch({type: 'choose', index})}
      onReset={() => {
        dispatch({type: 'reset'});
        firstButton.current?.focus();
      }}
      firstButtonRef={firstButton}
    />
  );
  if (place === 'interactive') {
    return view;
  }
  return (
    <QuestionPlaceContext.Provider value="interactive">
      <noscript>
        <QuestionTree title={title} answers={answers} />
      </noscript>
      {view}
    </QuestionPlaceContext.Provider>
  );
}

export default Question;
