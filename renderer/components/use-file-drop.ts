import { useState, type DragEvent } from 'react';

/** Files dropped anywhere on the window: whether some are held over it, and the handlers that take them. */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  return {
    dragging,
    handlers: {
      onDragOver: (e: DragEvent<HTMLElement>) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      },
      onDragLeave: (e: DragEvent<HTMLElement>) => e.currentTarget === e.target && setDragging(false),
      onDrop: (e: DragEvent<HTMLElement>) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        setDragging(false);
        onFiles([...e.dataTransfer.files]);
      },
    },
  };
}
