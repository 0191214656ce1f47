/** Posts the embed page's problems to the partner page, and its height when no widget resizes it. */
export function postProblems(doc: Document): void {
  const report = doc.querySelector<HTMLElement>('[data-embed-report]');
  const target = report?.dataset['parentOrigin'];
  if (!report || !target || window.parent === window) return;
  const list = (raw: string | undefined): unknown => JSON.parse(raw ?? '[]');
  const errors = list(report.dataset['errors']);
  const warnings = list(report.dataset['warnings']);
  if (Array.isArray(errors) && Array.isArray(warnings) && errors.length + warnings.length > 0) {
    window.parent.postMessage({ type: 'masthead:problems', errors, warnings }, target);
  }
  if (doc.querySelector('masthead-booking') || !('ResizeObserver' in window)) return;
  const post = () =>
    window.parent.postMessage({ type: 'masthead:resize', height: doc.body.scrollHeight }, target);
  new ResizeObserver(post).observe(doc.body);
}
