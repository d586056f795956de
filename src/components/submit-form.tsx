import type { FormHTMLAttributes } from 'react';

type SubmitFormProps = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => void };

/** A form whose submit is handed to its actor instead of reloading the page. */
export const SubmitForm = ({ onSubmit, ...form }: SubmitFormProps) => (
  <form
    {...form}
    onSubmit={(event) => {
      event.preventDefault();
      onSubmit();
    }}
  />
);
