/** Whether a message tells the payment of this invoice (its number, then the domain or the amount). */
export function namesInvoice(text: string, invoiceNumber: string): boolean {
  const at = text.indexOf(`Пришла оплата по счёту № ${invoiceNumber}`);
  if (at === -1) return false;
  const next = text.charAt(at + `Пришла оплата по счёту № ${invoiceNumber}`.length);
  return next === ':' || next === ' ';
}
