import './truncated-text.css';

/**
 * A value kept to one line and cut short with an ellipsis where its place has a set width (a table
 * cell, the header). The whole value stays in the text, for screen readers and copying, and in the
 * title, for a pointer. Nothing for a value not given.
 */
export function TruncatedText({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <span className="truncated-text" title={text}>
      {text}
    </span>
  );
}
