/** An agent's round picture, or its initial on the accent colour when it has none. */
export const AgentAvatar = ({ src, name, size = 40 }: { src: string; name: string; size?: number }) =>
  src ? (
    <img src={src} alt="" width={size} height={size} className="shrink-0 rounded-full object-cover" style={{ width: size, height: size }} />
  ) : (
    <span
      aria-hidden="true"
      className="grid shrink-0 place-items-center rounded-full bg-accent font-semibold text-accent-fg"
      style={{ width: size, height: size, fontSize: size * 0.42 }}
    >
      {Array.from(name)[0] ?? '?'}
    </span>
  );
