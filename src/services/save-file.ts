/** Hands the browser a file to download, named, from text made on the page. */
export const saveFile = (name: string, type: string, text: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once clicked; the address is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
