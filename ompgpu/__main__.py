from ompgpu.cli import main

raise SystemExit(main())
