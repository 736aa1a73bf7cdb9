import React, {type ReactNode} from 'react';
import Loading from '@theme-original/Loading';
import type {LoadingComponentProps as Props} from 'react-loadable';

/**
 * The route-chunk loading screen, wrapped so that its Retry button reloads the whole page
 * (a stale deployment is the usual cause of a failed chunk, and only a reload fetches the new
 * HTML and chunk names). Input: the react-loadable props `{error, retry, pastDelay, …}`;
 * output: the original spinner or red error box with the error text and a Retry button.
 */
export default function LoadingWrapper(props: Props): ReactNode {
  return <Loading {...props} retry={() => window.location.reload()} />;
}
