import { CopyButton } from "../ui/copy.tsx";

/** Recovery codes, shown once: copy or download them now, the server keeps only their hashes. */
export function RecoveryCodeList(props: { codes: string[]; onDone(): void }) {
  const text = `${props.codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "archimate-recovery-codes.txt";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div class="recovery-codes">
      <h3 id="recovery-title">Your recovery codes</h3>
      <p>
        Each code signs you in once when you do not have your authenticator app. Keep them somewhere safe: they are
        shown only now.
      </p>
      <ul class="code-list" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <CopyButton text={text} label="Copy codes" />
        <button type="button" onClick={download}>
          Download codes
        </button>
        <button type="button" class="primary" onClick={props.onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
