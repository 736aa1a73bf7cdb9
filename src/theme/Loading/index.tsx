import React, {type ReactNode} from 'react';
import Loading from '@theme-original/Loading';
import type {LoadingComponentProps as Props} from 'react-loadable';

/**
 * The route-chunk loading screen. While a chunk loads it is the original spinner; when the chunk
 * fails it is our own load-error box: an Infima danger alert (dark text on a light red, WCAG AA,
 * where the original box is white on #fa383e at 3.6:1) with the error text and a Retry button
 * that reloads the whole page (a stale deployment is the usual cause of a failed chunk, and only a
 * reload fetches the new HTML and chunk names).
 *
 * Input: the react-loadable props `{error, retry, pastDelay, …}` (`retry` is not used).
 * Output: the alert (`role="alert"`) when `error` is set, else the original component.
 */
export default function LoadingWrapper(props: Props): ReactNode {
  if (!props.error) return <Loading {...props} />;
  return (
    <div role="alert" className="alert alert--danger margin--lg" data-load-error="">
      <p>
        <strong>This part of the page could not be loaded.</strong> Check your connection, then try again.
      </p>
      <p>
        <code>{String(props.error)}</code>
      </p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Retry
      </button>
    </div>
  );
}
