
keepScanFocus('barcode');