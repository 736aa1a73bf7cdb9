import React, {type ComponentProps} from 'react';
import MDXComponents from '@theme-original/MDXComponents';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import ThemedImage from '@theme/ThemedImage';
import Version from '@site/src/components/Version';
import BrowserSupport from '@site/src/components/BrowserSupport';
import DiffTable from '@site/src/components/DiffTable';
import {Question, Answer} from '@site/src/components/Question';

/**
 * A Markdown table that keyboard users can scroll: Infima makes every content table a horizontal
 * scroll box (`display: block; overflow: auto`) so wide tables fit a phone, and a scroll box must
 * be focusable to be scrolled without a mouse (WCAG 2.1.1; axe `scrollable-region-focusable`).
 * Input: the table props MDX passes; output: the same `<table>` with `tabIndex={0}`.
 */
function ScrollableTable(props: ComponentProps<'table'>) {
  return <table tabIndex={0} {...props} />;
}

/**
 * The components every MDX page can use without importing them: the theme's defaults plus
 * `Tabs`/`TabItem` (also the target of the TypeScript-to-JavaScript tabs remark plugin),
 * `ThemedImage` (what the diagrams remark plugin puts in place of each Mermaid block), the
 * site's own `Version`, `BrowserSupport`, `DiffTable`, `Question` and `Answer`, and `table`
 * (see ScrollableTable).
 */
export default {
  ...MDXComponents,
  table: ScrollableTable,
  Tabs,
  TabItem,
  ThemedImage,
  Version,
  BrowserSupport,
  DiffTable,
  Question,
  Answer,
};
