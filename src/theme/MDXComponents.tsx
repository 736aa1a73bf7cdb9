import MDXComponents from '@theme-original/MDXComponents';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import Version from '@site/src/components/Version';
import BrowserSupport from '@site/src/components/BrowserSupport';
import DiffTable from '@site/src/components/DiffTable';
import {Question, Answer} from '@site/src/components/Question';

/**
 * The components every MDX page can use without importing them: the theme's defaults plus
 * `Tabs`/`TabItem` (also the target of the TypeScript-to-JavaScript tabs remark plugin) and the
 * site's own `Version`, `BrowserSupport`, `DiffTable`, `Question` and `Answer`.
 */
export default {
  ...MDXComponents,
  Tabs,
  TabItem,
  Version,
  BrowserSupport,
  DiffTable,
  Question,
  Answer,
};
