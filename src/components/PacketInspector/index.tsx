import {useId, useState, type ReactNode} from 'react';

import {EXAMPLES, formatHex32, formatSize, inspectPacket, type CheckStatus, type PacketInspection} from './inspect';
import styles from './styles.module.css';

/** Props of {@link PacketInspector}. */
export interface PacketInspectorProps {
  /** The hexadecimal text the input starts with. Default: the first of `EXAMPLES`, Tango's CNXN packet. */
  initialHex?: string;
}

/** Props of {@link PacketInspectorView}: the state {@link PacketInspector} keeps, passed down. */
export interface PacketInspectorViewProps {
  /** Base for the element ids (unique on the page, e.g. from `useId`). */
  id: string;
  /** The current text of the input. */
  text: string;
  /** Called with the new text when the reader edits the input or loads an example. */
  onTextChange: (text: string) => void;
}

const STATUS_LABELS: Readonly<Record<CheckStatus, string>> = {pass: 'Pass', fail: 'Fail', note: 'Note'};

/**
 * The decoded packet, or the reason it can't be decoded.
 *
 * Input: `{inspection}`, a result of {@link inspectPacket}.
 * Output: for an error, a paragraph with the message; otherwise a table of the six header
 * fields (offset, name, bytes, value in hex and decimal, meaning), a list of checks, each
 * labelled Pass, Fail or Note in text (not by colour alone), and the payload as text and hex
 * when the input holds payload bytes.
 * Errors: none. Facts: none of its own; all of them come from `inspect.ts`.
 */
export function InspectionResult({inspection}: {inspection: PacketInspection}): ReactNode {
  if (!inspection.ok) {
    return (
      <p className={styles.error}>
        <strong>Can't decode this input.</strong> {inspection.error}
      </p>
    );
  }
  const {command, fields, checks, payload} = inspection;
  return (
    <>
      <table className={styles.fields}>
        <caption>{command === undefined ? 'Header of a packet with an unknown command' : `Header of a ${command.name} packet`}</caption>
        <thead>
          <tr>
            <th scope="col">Offset</th>
            <th scope="col">Field</th>
            <th scope="col">Bytes</th>
            <th scope="col">Value</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.name}>
              <td>{field.offset}</td>
              <th scope="row">
                <code>{field.name}</code>
              </th>
              <td>
                <code>{field.bytes}</code>
              </td>
              <td>
                <code>{formatHex32(field.value)}</code> ({field.value})
              </td>
              <td>{field.meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className={styles.checks}>
        {checks.map((check, index) => (
          <li key={index} className={styles[check.status]}>
            <span className={styles.status}>{STATUS_LABELS[check.status]}</span> {check.message}
          </li>
        ))}
      </ul>
      {payload !== undefined && (
        <div className={styles.payload}>
          <p>
            <strong>Payload</strong>, {formatSize(payload.length)}
            {payload.note === undefined ? '' : `: ${payload.note}`}
          </p>
          {payload.text !== undefined && <pre className={styles.text}>{payload.text}</pre>}
          <pre className={styles.hex}>
            {payload.hex}
            {payload.truncated ? ' …' : ''}
          </pre>
        </div>
      )}
    </>
  );
}

/**
 * Stateless rendering of the inspector for a given input text.
 *
 * Input: {@link PacketInspectorViewProps}.
 * Output: a labelled `<textarea>` (described by a hint on the accepted format), one button per
 * example packet, and an `aria-live="polite"` region holding {@link InspectionResult} for `text`.
 * Everything is native form controls, so it works by keyboard.
 * Errors: none.
 */
export function PacketInspectorView({id, text, onTextChange}: PacketInspectorViewProps): ReactNode {
  const inputId = `${id}-input`;
  const hintId = `${id}-hint`;
  const examplesId = `${id}-examples`;
  return (
    <div className={styles.inspector}>
      <label className={styles.label} htmlFor={inputId}>
        Packet bytes in hexadecimal
      </label>
      <p className={styles.hint} id={hintId}>
        The 24-byte header, optionally followed by the payload. Spaces, line breaks and colons between bytes are ignored.
      </p>
      <textarea
        className={styles.input}
        id={inputId}
        aria-describedby={hintId}
        rows={6}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        value={text}
        onChange={(event) => onTextChange(event.target.value)}
      />
      <div className={styles.examples} role="group" aria-labelledby={examplesId}>
        <span className={styles.examplesLabel} id={examplesId}>
          Examples:
        </span>
        {EXAMPLES.map((example) => (
          <button
            key={example.label}
            type="button"
            className={styles.example}
            aria-controls={inputId}
            onClick={() => onTextChange(example.hex)}
          >
            {example.label}
          </button>
        ))}
      </div>
      <div className={styles.output} role="region" aria-label="Decoded packet" aria-live="polite">
        <InspectionResult inspection={inspectPacket(text)} />
      </div>
    </div>
  );
}

/**
 * Interactive ADB packet decoder for the "Packet format" page.
 *
 * Input: `{initialHex?}`. The reader pastes or types the hexadecimal bytes of a packet header,
 * optionally followed by its payload, or loads one of the example packets.
 * Output: {@link PacketInspectorView}, re-decoding on every change. The initial input is decoded
 * during server rendering too, so the pre-rendered HTML already shows a decoded CNXN packet.
 * Errors: none thrown; bad input (empty, not hex, odd digit count, shorter than 24 bytes) is
 * explained in the output region, and mismatches (unknown command, magic, payload length,
 * checksum) are listed as failed checks.
 * Facts: in `inspect.ts`, taken from `@yume-chan/adb` 2.0.1 and AOSP's adb.
 */
export default function PacketInspector({initialHex = EXAMPLES[0]!.hex}: PacketInspectorProps): ReactNode {
  const [text, setText] = useState(initialHex);
  const id = useId();
  return <PacketInspectorView id={id} text={text} onTextChange={setText} />;
}
