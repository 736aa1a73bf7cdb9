import React, {useState, type ReactNode} from 'react';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';
import OriginalMobileSidebar from '@theme-original/Navbar/MobileSidebar';

/**
 * Swizzled (wrapped) `@theme/Navbar/MobileSidebar`: the phone-size navigation drawer is built the
 * first time the reader opens it, not on every page load.
 *
 * The stock drawer renders its whole content (the navbar's items in their mobile form and the
 * page's sidebar) as soon as the window is phone-sized, hidden off-screen, right after hydration:
 * a block of main-thread work on each page load of exactly the readers with the slowest CPUs, for
 * a menu most page views never open. Once opened, it stays rendered, so closing and reopening
 * slides as before; the first opening shows it without the slide.
 *
 * Input: none (reads the navbar's mobile-sidebar state). Output: nothing until the drawer is first
 * shown, then the theme's drawer. Errors: none. tests/e2e/navigation.spec.ts opens it.
 */
export default function NavbarMobileSidebar(): ReactNode {
  const {shown} = useNavbarMobileSidebar();
  const [opened, setOpened] = useState(false);
  // State derived during render (React's documented pattern): no extra effect pass.
  if (shown && !opened) setOpened(true);
  return opened || shown ? <OriginalMobileSidebar /> : null;
}
