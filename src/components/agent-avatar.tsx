import { useState } from 'react';

/** An agent's round picture, or its initial on the accent colour when it has none or it fails to load. */
export const AgentAvatar = ({ src, name, size = 40 }: { src: string; name: string; size?: number }) => {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (src && failedSrc !== src) {
    return (
      <img
        src={src}
        alt=""
        width={size}
        height={size}
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
        onError={() => setFailedSrc(src)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="grid shrink-0 place-items-center rounded-full bg-accent font-semibold text-accent-fg"
      style={{ width: size, height: size, fontSize: size * 0.42 }}
    >
      {Array.from(name)[0] ?? '?'}
    </span>
  );
};
