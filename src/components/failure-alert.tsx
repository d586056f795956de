/** A failed action on a settings panel: what did not happen, then why. */
export const FailureAlert = ({ what, why }: { what: string; why: string }) => (
  <div role="alert" className="rounded-lg border border-danger px-3 py-2 text-sm">
    <p className="m-0 text-danger">{what}</p>
    <p className="m-0 mt-1">{why}</p>
  </div>
);
