// Small decorative icons, each one SVG path in a 24×24 box: every icon sits beside a text that
// says the same (never the only signal). Each micro-frontend names the set it uses and bundles it.
export function createIcons<N extends string>(paths: Record<N, string>) {
  return function Icon({ name, className }: { name: N; className?: string }) {
    return (
      <svg
        className={`icon${className ? ` ${className}` : ''}`}
        viewBox="0 0 24 24"
        width="18"
        height="18"
        aria-hidden="true"
        focusable="false"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={paths[name]} />
      </svg>
    );
  };
}
