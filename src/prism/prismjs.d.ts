// prismjs ships its components as plain scripts; @types/prismjs types only the package root.
declare module 'prismjs/components/prism-core' {
  import Prism from 'prismjs';
  export default Prism;
}
declare module 'prismjs/components/*';
