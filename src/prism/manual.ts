/**
 * Tells Prism, before `prismjs/components/prism-core` is evaluated, not to highlight the page on
 * its own (`manual`) and not to listen for worker messages: React renders the highlighted code,
 * and an automatic `Prism.highlightAll()` on DOMContentLoaded would rewrite the server-rendered
 * code blocks under React's feet. Import it before prism-core; it has no exports.
 */
(globalThis as {Prism?: unknown}).Prism = {manual: true, disableWorkerMessageHandler: true};

export {};
